# jobcheck-test: select=JC501
import os


def purge_uploads():  # expect: JC501
    for name in os.listdir("/tmp/uploads"):
        os.remove(os.path.join("/tmp/uploads", name))


def delete_version(version_id):  # expect: JC501
    os.remove(f"/srv/versions/{version_id}")


def export_repository(repo_id):  # expect: JC501
    os.makedirs(f"/srv/exports/{repo_id}", exist_ok=True)


def measure():
    return os.listdir("/srv")


def login_event():
    return "login"


def prune_versions():  # expect: JC501
    os.remove("/srv/versions/old")


class Home:
    @property
    def path(self):
        return "/srv/home"


def rotate_logs():  # expect: JC501
    os.remove("/srv/logs/old.log")
