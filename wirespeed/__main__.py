from wirespeed.cli import main

main()
