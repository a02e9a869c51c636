"""Pure metric functions of the wirespeed engine: no I/O."""
