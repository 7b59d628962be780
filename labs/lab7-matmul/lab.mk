# lab.mk - lab 7 links cuBLAS: the driver measures cublasSgemm as the ceiling and uses it as the
# reference at the timed size. Student kernels never call it.
LIBS_lab7 := -lcublas
