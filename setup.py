"""The build's one addition to pyproject.toml: the repository's top-level models/ and resources/ go into the wheel
inside the package, as desktop_app/models (the catalog only, never a GGUF a user dropped there) and
desktop_app/resources (icons, tokenizer, desktop entry). A checkout and an editable install (`make run`) read
the top-level folders themselves (desktop_app/core/storage/paths.shipped_dir)."""

from setuptools import find_packages, setup

SHIPPED = {"desktop_app.models": "models", "desktop_app.resources": "resources"}

setup(
    packages=[*find_packages(include=["desktop_app*"]), *SHIPPED],
    package_dir=SHIPPED,
    package_data={"desktop_app.models": ["catalog.json"], "desktop_app.resources": ["*"]},
)
