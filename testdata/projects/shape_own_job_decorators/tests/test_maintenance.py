from ops.jobs import background_task


@background_task()
def fake_procedure(runner):  # a test's: not the application's job
    pass
