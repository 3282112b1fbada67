# Imported by scale.py: a change here must rebuild scale.py's object only.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def twice(x):
    return x + x
