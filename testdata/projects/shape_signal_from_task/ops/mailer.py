import smtplib


def send(to, body):  # a function named `send`, not a signal: no job of its own
    smtplib.SMTP("localhost").sendmail("ops@example.com", [to], body)


def notify_owner(order):
    send(order["owner"], "paid")
