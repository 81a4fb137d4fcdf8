# jobcheck-test: select=JC501
from ops.taskqueue import task


@task(name="system.run_script")
def run_script(path):  # expect: JC501
    pass
