"""What `wirespeed serve` serves: the built site as published (public/), or Hugo's live server over the exported
site data, with the configuration that leaves out what the last build left out."""

from __future__ import annotations

from pathlib import Path

from wirespeed.pipeline import paths

PUBLIC = Path("public")


class NothingToServe(Exception):
    """The build has not made what the preview serves."""


def built_site(public: Path = PUBLIC) -> Path:
    """The built site's folder, when a build made it."""
    if not (public / "index.html").is_file():
        raise NothingToServe(f"{public}/ holds no built site: run wirespeed build first")
    return public


def live_config() -> list[str]:
    """The extra arguments of Hugo's live server: the exported site data must be there; the config that drops the
    articles citing left-out sets is added when the last build wrote one."""
    if not (paths.HUGO_DATA / "wirespeed").is_dir():
        raise NothingToServe(f"{paths.HUGO_DATA}/ is missing: run wirespeed build first")
    return ["--config", f"config.toml,{paths.HUGO_LEFT_OUT.resolve()}"] if paths.HUGO_LEFT_OUT.is_file() else []
