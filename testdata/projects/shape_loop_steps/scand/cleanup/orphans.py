import shutil


def remove_orphans():
    shutil.rmtree("/var/lib/scand/orphans", ignore_errors=True)
