from setuptools import setup

package_dir = {"ircbot": "src", "ircbot.plugins": "plugins"}

setup(name="ircbot", packages=["ircbot", "ircbot.plugins"], package_dir=package_dir)
