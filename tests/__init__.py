"""The test suite, one package per layer of the code (tests/rules/, tests/fast/, tests/search/,
tests/research/, tests/jobs/, tests/tools/, tests/cli/). Packages, so that test modules of one
basename may sit in two folders and import their shared helpers as ``tests.helpers``."""
