import time


def wait_out():
    time.sleep(5)


def settle():
    wait_out()


def cool_down():
    settle()


def rest():
    cool_down()
