from setuptools import find_packages, setup

setup(
    name="opsdesk",
    packages=find_packages(),
    entry_points={
        "console_scripts": [
            "opsdesk = opsdesk.__main__:main",
            "opsdesk-prune = opsdesk.prune:main",
            "opsdesk-serve = opsdesk.prune:serve",
            "deskctl = opsdesk.ctl:main",
            "opsdesk-reindex = opsdesk.reindex:main",
        ],
    },
)
