from events.router import Leader


def test_lead():
    leader = Leader()

    async def work():
        return None

    leader.run(work)
    leader.lead()
