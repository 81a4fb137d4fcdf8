"""The effect catalog (data) and the classifier that reads calls against it."""
