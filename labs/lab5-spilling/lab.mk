# lab.mk - lab 5 links one more object per build of kernels.cu (student, solution, custom[-NAME]):
# the compiler's resource report of every capped kernel (registers, stack frame, spill
# stores and loads). kernels.cu is compiled once more with --resource-usage, and
# tools/resource-table.py (the grader's parser) writes the report as a C table, compiled.c
# (driver/compiled.h), which the driver prints. The flags are kernels.o's, so the code is the
# same. Without python3 the table is empty and the spill columns stay empty; the lab still runs.
LAB5_DIR := labs/lab5-spilling
LAB5_EMPTY_TABLE := '\#include "compiled.h"\nconst struct compiled_kernel compiled_kernels[1];\nconst int compiled_kernel_count = 0;\n'

# $(1) flavour, $(2) its kernels.cu
define lab5_compiled
$(OUT)/$(1)/lab5/compiled.c: $(2) $(LAB5_DIR)/kernels.h tools/resource-table.py grading/static_checks.py
	@mkdir -p $$(@D)
	$$(NVCC) $$(filter-out -MMD -MP,$$(NVFLAGS)) -I$(LAB5_DIR) --resource-usage -c $$< -o $$(@D)/report.o \
	    >$$(@D)/report.txt 2>&1 || { cat $$(@D)/report.txt; exit 1; }
	@python3 tools/resource-table.py $$(@D)/report.txt $$@ || { printf $(LAB5_EMPTY_TABLE) >$$@; \
	    echo "lab5: could not parse the compiler's report ($$(@D)/report.txt): the spill columns will be empty"; }
$(OUT)/$(1)/lab5/compiled.o: $(OUT)/$(1)/lab5/compiled.c $(LAB5_DIR)/driver/compiled.h
	$$(CC) $$(CFLAGS) -I$(LAB5_DIR)/driver -c $$< -o $$@
$(OUT)/$(1)/lab5/lab5: $(OUT)/$(1)/lab5/compiled.o
endef
$(eval $(call lab5_compiled,student,$(LAB5_DIR)/kernels.cu))
$(eval $(call lab5_compiled,solution,solutions/lab5-spilling/kernels.cu))
$(eval $(call lab5_compiled,$(CUSTOM_DIR),$(OUT)/$(CUSTOM_DIR)/lab5/src/kernels.cu))
