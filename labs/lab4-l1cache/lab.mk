# lab.mk - lab 4 compiles its kernels.cu twice into one program: the same source with global
# loads cached in L1 (-dlcm=ca) and in L2 only (-dlcm=cg), ptxas's "default load cache
# modifier". -DLAB4_BUILD_* gives each copy's variant table a name of its own (kernels.h),
# so the driver sees lab4_variants_ca and lab4_variants_cg and runs them side by side.
KERNEL_BUILDS_lab4 := ca cg
KERNEL_FLAGS_lab4_ca := -Xptxas -dlcm=ca -DLAB4_BUILD_CA
KERNEL_FLAGS_lab4_cg := -Xptxas -dlcm=cg -DLAB4_BUILD_CG
