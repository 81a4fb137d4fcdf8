from setuptools import setup

setup(
    name="pollerd",
    packages=["pollerd"],
    entry_points={"console_scripts": ["pollerd = pollerd.main:main"], "gui_scripts": ["pollerd-ui = pollerd.main:ui"]},
)
