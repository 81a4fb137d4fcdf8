from huey import RedisHuey

huey = RedisHuey("worker")
