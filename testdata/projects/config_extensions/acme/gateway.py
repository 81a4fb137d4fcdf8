def charge_card(order_id, amount):
    """Configured as a payment effect: its body is not what makes it one."""
