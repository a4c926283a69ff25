"""Running MLIR's lit integration tests (RUN and CHECK lines) through eqsat; the command line
is ``experiments/mlir_integration.py``."""
