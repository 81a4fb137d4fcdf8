# jobcheck-test: select=JC501
# Scrapy: a handler connected to a crawl's signals runs once with each run of the spider (an
# extension's `spider_closed` that sends the report); `item_scraped` runs per item, a step of it.
import requests
from scrapy import signals


class Report:
    def __init__(self, crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler):
        ext = cls(crawler)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        return ext

    def spider_closed(self, spider):  # expect: JC501
        requests.post("https://chat.example/report", json={"spider": spider.name})

    def item_scraped(self, item, spider):
        pass


class Opened:
    def __init__(self, crawler):
        crawler.signals.connect(self.opened, signal=signals.spider_opened)

    def opened(self, spider):  # expect: JC501
        pass


class Positional:
    def __init__(self, crawler):
        crawler.signals.connect(self.closed, signals.spider_closed)

    def closed(self, spider):  # expect: JC501
        pass


SIGNALS = {"done": object()}


def not_scrapy(dispatcher, handler):
    # Another library's `connect`, given a signal that is no name: nothing here, and no failure.
    dispatcher.connect(handler, signal=SIGNALS["done"])
    dispatcher.connect(handler, signal=5)
    dispatcher.connect(handler, signal=("a", "b"))
