"""A retry decorator made once and named: `@retries.retry_on_disconnect` is this tenacity call."""
import tenacity

retry_on_disconnect = tenacity.retry(stop=tenacity.stop_after_attempt(3),
                                     wait=tenacity.wait_exponential(multiplier=1, max=30))
not_a_decorator = {"stop": 3}
