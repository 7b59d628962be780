# gpu-memlab - one non-recursive Makefile. `make help` lists the targets and the knobs.
#
# Labs are found by their folders (labs/labN-topic), so adding a lab adds its targets.
# Builds go under build/<arch>/: build/<arch>/<flavour>/labN/labN, where the flavour is
# student (labs/), solution (solutions/) or custom (KERNELS=file; custom-NAME with CUSTOM=NAME,
# so that two KERNELS= builds of one lab can run side by side).

NVCC     ?= nvcc
GNUPLOT  ?= gnuplot
SOLUTION ?= 0
QUICK    ?= 0
ARGS     ?=
KERNELS  ?=
CUSTOM   ?=
BUILD_DIR ?= build
# A KERNELS= build's folder: custom, or custom-NAME with CUSTOM=NAME (lab.mk files use it too).
CUSTOM_DIR := custom$(if $(CUSTOM),-$(CUSTOM))

# The GPU's architecture when there is one (nvidia-smi). Without one, the course GPU's (the
# H100's) and its PTX: -arch=sm_90 is -gencode arch=compute_90,code=[sm_90,compute_90]. A
# machine without a GPU runs nothing, so its builds only show that the code compiles, which
# one architecture shows as well as five (make -j2 all: 34 s on 2 busy cores, 114 s fat). The
# grader builds for sm_90 there too (grading/rubrics/common.ini), and so finds make test's
# harness built. ARCH=fat: a portable binary for sm_75 ... sm_90 (CUDA 13's oldest target).
DETECTED_CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .' | grep -E '^[0-9]+$$')
ifneq ($(DETECTED_CC),)
ARCH ?= sm_$(DETECTED_CC)
else
ARCH ?= sm_90
endif
FAT_TARGETS := 75 80 86 89 90
ifeq ($(ARCH),fat)
ARCH_FLAGS := $(foreach t,$(FAT_TARGETS),-gencode arch=compute_$(t),code=sm_$(t)) -gencode arch=compute_90,code=compute_90
else
ARCH_FLAGS := -arch=$(ARCH)
endif

OUT      := $(BUILD_DIR)/$(ARCH)
HOST_OUT := $(BUILD_DIR)/host
# The host's references and checks run on every core (OpenMP), so that the GPU does not wait
# for them; the host compiler's flag, for compiling and for linking.
OPENMP   := -fopenmp
NVFLAGS  := -O3 -std=c++17 $(ARCH_FLAGS) -lineinfo -Icommon -Xcompiler -Wall,$(OPENMP) -MMD -MP
CFLAGS   := -O2 -std=c11 -Wall -Wextra -Werror=implicit-function-declaration -Icommon $(OPENMP) -MMD -MP

# ---- labs -------------------------------------------------------------------------------
# A lab folder may hold lab.mk, setting LIBS_labN (e.g. -lcublas) for its program.
LAB_DIRS := $(sort $(wildcard labs/lab[0-9]*-*))
-include $(wildcard labs/*/lab.mk)
lab_num   = $(patsubst lab%,%,$(firstword $(subst -, ,$(notdir $(1)))))
LAB_NUMS := $(shell printf '%s\n' $(foreach d,$(LAB_DIRS),$(call lab_num,$(d))) | sort -n)
lab_dir   = $(firstword $(wildcard labs/lab$(1)-*))
sol_dir   = $(patsubst labs/%,solutions/%,$(call lab_dir,$(1)))

# The student copy (make dist) has no solutions/: what needs them is for instructors, and says so
# in one line (make's own, at once) rather than failing later.
STUDENT_COPY := $(if $(wildcard solutions/*/kernels.cu),,1)
ifeq ($(STUDENT_COPY),1)
ifeq ($(SOLUTION),1)
$(error SOLUTION=1 runs the instructors' solutions, which this student copy of the kit does not have (make help: what you can run))
endif
INSTRUCTOR_GOALS := $(filter student-files dist gradescope reference-plots format,$(MAKECMDGOALS))
ifneq ($(INSTRUCTOR_GOALS),)
$(error make $(firstword $(INSTRUCTOR_GOALS)) is for instructors, and needs their copy of the kit (this student copy has no solutions/; make help: what you can run))
endif
endif

# A lab goal that names no lab (make lab99): the labs, then one line, the last, and exit 2.
LAB_GOALS := $(foreach n,$(LAB_NUMS),lab$(n) lab$(n)-build profile-lab$(n) sanitize-lab$(n))
UNKNOWN_LAB := $(firstword $(filter-out $(LAB_GOALS),$(foreach g,$(filter lab% profile-lab% sanitize-lab%,$(MAKECMDGOALS)),$(if $(findstring /,$(g)),,$(g)))))
ifneq ($(UNKNOWN_LAB),)
$(shell echo "the labs:" >&2; sh tools/labs.sh help >&2)
$(error make $(UNKNOWN_LAB): there is no such lab; the labs are $(firstword $(LAB_NUMS)) to $(lastword $(LAB_NUMS)), listed above)
endif

ifneq ($(KERNELS),)
FLAVOUR := $(CUSTOM_DIR)
else ifeq ($(SOLUTION),1)
FLAVOUR := solution
else
FLAVOUR := student
endif

# ---- common/: the harness (every lab) and its probes/ (what some labs share) ---------------
# Every lab program links the whole harness, then the probes as an archive, from which the
# linker takes the probes the program uses. A lab's sources include a probe as "probes/NAME.h".
HOST_SRCS := $(wildcard common/*.c)
CUDA_SRCS := $(wildcard common/*.cu)
HOST_OBJS := $(patsubst common/%.c,$(HOST_OUT)/common/%.o,$(HOST_SRCS))
CUDA_OBJS := $(patsubst common/%.cu,$(OUT)/common/%.o,$(CUDA_SRCS))
VERSION_OBJ := $(OUT)/version.o
HARNESS  := $(HOST_OBJS) $(CUDA_OBJS) $(VERSION_OBJ)
PROBE_OBJS := $(patsubst common/probes/%.c,$(HOST_OUT)/common/probes/%.o,$(wildcard common/probes/*.c)) \
              $(patsubst common/probes/%.cu,$(OUT)/common/probes/%.o,$(wildcard common/probes/*.cu))
PROBES   := $(OUT)/common/probes.a

$(HOST_OUT)/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(OUT)/common/%.o: common/%.cu
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -c $< -o $@

$(PROBES): $(PROBE_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# The build's identity, rewritten only when it changes (so nothing rebuilds needlessly).
# A copy of the tree without .git (a GPU machine) reads the revision from .revision;
# tools/maint/gpu-visit.sh passes GIT_REV=$(cat .revision) so that a stale .git there cannot win.
GIT_REV := $(shell git describe --always --dirty 2>/dev/null || cat .revision 2>/dev/null || echo unknown)
VERSION_TEXT := const char memlab_git[] = "$(GIT_REV)"; const char memlab_build[] = "-O3 $(ARCH_FLAGS)";
$(OUT)/version.c: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION_TEXT)' | cmp -s - $@ || echo '$(VERSION_TEXT)' > $@
$(VERSION_OBJ): $(OUT)/version.c
	$(CC) -c $< -o $@

# ---- one lab: the trusted driver once per lab, then per flavour ---------------------------
# $(1) number; for lab_build also $(2) flavour and $(3) its kernels.cu.
# The driver is every .cu and .c file of the lab's driver/ folder, each compiled on its own
# (.c: host code in C, as in common/), with the lab's folder on the include path: kernels.h
# and the files there that students read as part of the lesson.
driver_srcs = $(wildcard $(call lab_dir,$(1))/driver/*.cu $(call lab_dir,$(1))/driver/*.c)
driver_objs = $(foreach f,$(call driver_srcs,$(1)),$(if $(filter %.c,$(f)),$(HOST_OUT),$(OUT))/driver/lab$(1)/$(basename $(notdir $(f))).o)
# A lab's lab.mk may have its kernels.cu compiled more than once into the one program, each
# time with flags of its own: KERNEL_BUILDS_labN := a b and KERNEL_FLAGS_labN_a := ... give
# objects kernels_a.o and kernels_b.o (lab 4: the same kernels with the L1 on and off).
# Otherwise a lab has one kernels.o.
kernel_builds = $(or $(KERNEL_BUILDS_lab$(1)),one)
kernel_obj = $(OUT)/$(2)/lab$(1)/kernels$(if $(filter one,$(3)),,_$(3)).o
define lab_driver
$(OUT)/driver/lab$(1)/%.o: $(call lab_dir,$(1))/driver/%.cu
	@mkdir -p $$(@D)
	$$(NVCC) $$(NVFLAGS) -I$(call lab_dir,$(1)) -c $$< -o $$@
$(HOST_OUT)/driver/lab$(1)/%.o: $(call lab_dir,$(1))/driver/%.c
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -I$(call lab_dir,$(1)) -c $$< -o $$@
endef
# $(4): the build's name (one, or one of KERNEL_BUILDS_labN)
define kernel_rule
$(call kernel_obj,$(1),$(2),$(4)): $(3)
	@mkdir -p $$(@D)
	$$(NVCC) $$(NVFLAGS) $$(KERNEL_FLAGS_lab$(1)_$(4)) -I$(call lab_dir,$(1)) -c $$< -o $$@
endef
define lab_build
$(foreach b,$(call kernel_builds,$(1)),$(eval $(call kernel_rule,$(1),$(2),$(3),$(b))))
$(OUT)/$(2)/lab$(1)/lab$(1): $(call driver_objs,$(1)) $(foreach b,$(call kernel_builds,$(1)),$(call kernel_obj,$(1),$(2),$(b))) $$(HARNESS) $$(PROBES)
	$$(NVCC) $$(ARCH_FLAGS) -Xcompiler $$(OPENMP) $$^ -o $$@ $$(LIBS_lab$(1))
endef

$(foreach n,$(LAB_NUMS),$(eval $(call lab_driver,$(n))))
# Before the driver had a folder it was labs/labN-topic/driver.cu, and the dependency files of a
# build made then (build/, build-grading/) still name it: without a rule make would stop there.
$(addsuffix /driver.cu,$(LAB_DIRS)):
$(foreach n,$(LAB_NUMS),$(eval $(call lab_build,$(n),student,$(call lab_dir,$(n))/kernels.cu)))
$(foreach n,$(LAB_NUMS),$(if $(wildcard $(call sol_dir,$(n))/kernels.cu),$(eval $(call lab_build,$(n),solution,$(call sol_dir,$(n))/kernels.cu))))

# KERNELS=file: the file is copied next to nothing else, so that it can only include the
# kit's own kernels.h (the grader relies on this).
# The lab goal may also be profile-labN or sanitize-labN (a submission under the profiler).
ifneq ($(KERNELS),)
KERNELS_GOAL := $(patsubst profile-%,%,$(patsubst sanitize-%,%,$(filter lab% profile-lab% sanitize-lab%,$(MAKECMDGOALS))))
ifneq ($(words $(KERNELS_GOAL)),1)
$(error KERNELS=... substitutes one lab's kernels.cu: name one lab target, e.g. make lab1 KERNELS=$(KERNELS))
endif
CUSTOM_LAB := $(firstword $(subst -, ,$(patsubst lab%,%,$(KERNELS_GOAL))))
$(OUT)/$(CUSTOM_DIR)/lab$(CUSTOM_LAB)/src/kernels.cu: $(KERNELS) FORCE
	@mkdir -p $(@D)
	@cmp -s $< $@ || cp $< $@
$(eval $(call lab_build,$(CUSTOM_LAB),$(CUSTOM_DIR),$(OUT)/$(CUSTOM_DIR)/lab$(CUSTOM_LAB)/src/kernels.cu))
endif

# ---- targets ------------------------------------------------------------------------------
LAB_TARGETS := $(addprefix lab,$(LAB_NUMS))
RUN_FLAGS := $(if $(filter 1,$(QUICK)),--quick) $(ARGS)

.PHONY: help all $(LAB_TARGETS) $(addsuffix -build,$(LAB_TARGETS)) plots test test-quick lint format student-files \
        reference-plots clean dist gradescope FORCE $(addprefix profile-,$(LAB_TARGETS)) \
        $(addprefix sanitize-,$(LAB_TARGETS))
.DEFAULT_GOAL := help

help:
	@echo "gpu-memlab: labs on the GPU memory hierarchy"
	@echo
	@echo "  make labN            build lab N, run it (table + results/labN/*.csv), plot it (plots/labN/)"
	@echo "  make labN-build      build lab N only"
	@echo "  make all             build every lab$(if $(STUDENT_COPY),, and its solution), run none"
	@echo "  make profile-labN    lab N's key counters under Nsight Compute (ncu): results/labN/profile.txt"
	@echo "  make sanitize-labN   compute-sanitizer memcheck, racecheck, initcheck per variant: results/labN/sanitize.txt"
	@echo "  make plots           re-render every figure from the CSVs in results/"
	@echo "  make test            the kit's tests (GPU checks run only where there is a GPU)"
	@echo "  make test LABS='1 6' only these labs' checks (and the generic ones)"
	@echo "  make test-quick      all but the grader's fixture classes, for the edit loop"
	@echo "  make lint            the house style: clang-format (a dry run), ruff, shellcheck"
	@echo "  make clean           remove $(BUILD_DIR)/, results/ and the generated plots"
	@echo "  make help            this list"
ifneq ($(STUDENT_COPY),1)
	@echo
	@echo "instructors (not in the student copy):"
	@echo "  make labN SOLUTION=1 run the solution instead of labs/labN-*/kernels.cu"
	@echo "  make student-files   regenerate labs/*/kernels.cu from solutions/"
	@echo "  make format          clang-format the C and CUDA files in place, then make student-files"
	@echo "  make reference-plots re-render the handouts' reference figures"
	@echo "  make dist            the student copy: $(DIST_TARBALL) (no solutions, no private grading data)"
	@echo "  make gradescope LAB=N  lab N's Gradescope autograder: dist/gradescope-labN.zip (GPU_RESULTS=DIR:"
	@echo "                       with the GPU tests that grade-all graded into DIR; grading/README.md)"
endif
	@echo
	@echo "labs:"
	@sh tools/labs.sh help
	@echo
	@echo "knobs:"
	@echo "  QUICK=1              a short sweep (--quick)"
	@echo "  ARGS='--only X'      more options for the lab program (see build/.../labN --help)"
	@echo "  ARCH=sm_80           GPU architecture (now: $(ARCH); by default the GPU's; without one sm_90;"
	@echo "                       'fat': a portable binary for sm_75 ... sm_90, 3 times the build)"
	@echo "  BUILD_DIR=build-x    where the builds go (now: $(BUILD_DIR)/; one of your own when several people"
	@echo "                       share a checkout)"
	@echo "  KERNELS=path.cu      build lab N with this kernels.cu (what the grader does)"
	@echo "  CUSTOM=name          with KERNELS=: build into $(BUILD_DIR)/<arch>/custom-name/ (default custom/)"
	@echo "  ONLY=A,B             profile-labN, sanitize-labN: only these variants"
	@echo "  TOOLS='racecheck'    sanitize-labN: only these tools (memcheck racecheck initcheck)"
	@echo "  JOBS=N               make test: N sections at once (default: one per core)"

all: $(foreach n,$(LAB_NUMS),$(OUT)/student/lab$(n)/lab$(n) $(if $(wildcard $(call sol_dir,$(n))),$(OUT)/solution/lab$(n)/lab$(n)))

# make labN: build, run, plot. Where nvidia-smi lists no GPU, a probe (built in a second) asks
# CUDA first, and a machine without a GPU hears so at once, in the lab program's words, not
# after the build; the build runs in a make of its own after it.
run_lab = rc=0; $(OUT)/$(FLAVOUR)/lab$(1)/lab$(1) --csv results/lab$(1) $(RUN_FLAGS) || rc=$$?; \
	if [ $$rc -le 1 ]; then sh tools/render-plots.sh $(call lab_dir,$(1)) results/lab$(1) plots/lab$(1); fi; \
	exit $$rc
$(foreach n,$(LAB_NUMS),$(eval lab$(n)-build: $(OUT)/$(FLAVOUR)/lab$(n)/lab$(n)))
ifeq ($(DETECTED_CC),)
GPU_PROBE := $(HOST_OUT)/gpu-probe
$(GPU_PROBE): tools/gpu-probe.c
	@mkdir -p $(@D)
	@$(NVCC) -O2 $< -o $@
$(LAB_TARGETS): lab%: $(GPU_PROBE)
	@$(GPU_PROBE) $@ && $(MAKE) --no-print-directory $@-build && { $(call run_lab,$*); }
else
$(LAB_TARGETS): lab%: lab%-build
	@$(call run_lab,$*)
endif

# The lab's own settings (size, kernels, metrics) are in tools/lab-tools.table.
$(addprefix profile-,$(LAB_TARGETS)): profile-lab%: lab%-build
	@ONLY='$(ONLY)' sh tools/profile.sh $* $(OUT)/$(FLAVOUR)/lab$*/lab$*
$(addprefix sanitize-,$(LAB_TARGETS)): sanitize-lab%: lab%-build
	@ONLY='$(ONLY)' TOOLS='$(TOOLS)' sh tools/sanitize.sh $* $(OUT)/$(FLAVOUR)/lab$*/lab$*

plots:
	@for d in $(LAB_DIRS); do n=$$(basename $$d | cut -d- -f1); \
	  if [ -d results/$$n ]; then sh tools/render-plots.sh $$d results/$$n plots/$$n || exit $$?; fi; done

reference-plots:
	@for d in $(LAB_DIRS); do n=$$(basename $$d | cut -d- -f1); \
	  if [ -d handouts/reference/$$n ]; then sh tools/render-plots.sh $$d handouts/reference/$$n handouts/reference/$$n png || exit $$?; fi; done

student-files:
	@for m in solutions/*/kernels.cu; do s=labs/$$(basename $$(dirname $$m))/kernels.cu; \
	  awk -f tools/mkstudent.awk $$m > $$s.tmp && mv $$s.tmp $$s && echo "wrote $$s" || { rm -f $$s.tmp; exit 1; }; done

test:
	@bash tests/run.sh

# The house style, checked (tools/maint/lint.sh says what each linter reads); make format
# applies the C and CUDA part, and the student files follow their formatted masters.
lint:
	@sh tools/maint/lint.sh
format:
	sh tools/maint/lint.sh --files c | xargs clang-format -i
	@$(MAKE) --no-print-directory student-files

# The edit loop: every check but the grader's fixture classes (most of a GPU run's time).
test-quick:
	@SKIP_GRADING=1 bash tests/run.sh

# ---- the kit's test programs (tests/unit/; tests/run.sh and tests/labN.sh run them) --------
# The harness's unit tests (and lab 1's traffic models): host code only, no GPU.
$(HOST_OUT)/tests/unit: tests/unit/unit.c $(filter-out $(HOST_OUT)/common/check.o,$(HOST_OBJS)) $(HOST_OUT)/common/check.o \
                        $(HOST_OUT)/driver/lab1/sector_model.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(filter %.c %.o,$^) -lm -o $@

# --counters' join (common/probes/profile.cu) through tools/ncu-counters.sh and tests/fake-ncu.
$(OUT)/tests/profile_test: tests/unit/profile_test.cu $(OUT)/common/probes/profile.o $(HOST_OUT)/common/check.o
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) $(filter %.cu %.o,$^) -o $@

# The GPU-side checker's own checks (common/probes/devcheck.h): needs a GPU to run.
$(OUT)/tests/devcheck: tests/unit/devcheck.cu $(HARNESS) $(PROBES)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) $(filter %.cu %.o %.a,$^) -o $@

# The labs' models and checkers on the CPU (no GPU): lab 3's bank model, lab 4's chase and
# edge finder, lab 5's checked rows, lab 7's residency arithmetic, lab 9's volume model (linked
# with the solution's or the student file's kernels), lab 10's texture model and its image
# check on 1 to 8 threads.
$(HOST_OUT)/tests/lab3_bank_model: tests/unit/lab3_bank_model.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ilabs/lab3-banks $(filter %.c %.o,$^) -o $@
$(HOST_OUT)/tests/lab4_chase: tests/unit/lab4_chase.c $(HOST_OUT)/common/probes/chase.o $(HOST_OUT)/common/rng.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(filter %.c %.o,$^) -o $@
$(HOST_OUT)/tests/lab4_edges: tests/unit/lab4_edges.c $(HOST_OUT)/driver/lab4/edges.o $(HOST_OUT)/common/stats.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ilabs/lab4-l1cache/driver $(filter %.c %.o,$^) -lm -o $@
$(HOST_OUT)/tests/lab7_residency: tests/unit/lab7_residency.c $(HOST_OUT)/driver/lab7/residency.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Werror -Ilabs/lab7-matmul/driver $(filter %.c %.o,$^) -o $@
$(OUT)/tests/lab5_rows: tests/unit/lab5_rows.cu $(OUT)/driver/lab5/wave_check.o $(HARNESS) $(PROBES)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -Ilabs/lab5-spilling -Ilabs/lab5-spilling/driver $(filter %.cu %.o %.a,$^) -o $@
$(OUT)/tests/lab9_model_%: tests/unit/lab9_model.cu $(OUT)/%/lab9/kernels.o
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -Ilabs/lab9-model $(filter %.cu %.o,$^) -o $@
$(HOST_OUT)/tests/lab10_texture_model: tests/unit/lab10_texture_model.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ilabs/lab10-constant-texture $(filter %.c %.o,$^) -lm -o $@
$(OUT)/tests/lab10_image_check: tests/unit/lab10_image_check.cu $(OUT)/driver/lab10/image_check.o \
                                  $(HOST_OUT)/common/check.o $(HOST_OUT)/common/rng.o
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -Ilabs/lab10-constant-texture -Ilabs/lab10-constant-texture/driver $(filter %.cu %.o,$^) -o $@

# ---- dist: the student copy (grading/make-dist.sh says what is left out) -------------------
DIST_TARBALL := dist/gpu-memlab-student.tar.gz
dist:
	@sh grading/make-dist.sh $(DIST_TARBALL)
# ---- end of dist ---------------------------------------------------------------------------

# ---- gradescope: lab N's autograder bundle (grading/gradescope.py) -------------------------
gradescope:
	@[ -n "$(LAB)" ] || { echo "make gradescope LAB=N [GPU_RESULTS=results/grading/labN]: which lab?"; exit 2; }
	@python3 grading/gradescope.py $(LAB) dist/gradescope-lab$(LAB).zip $(if $(GPU_RESULTS),--gpu-results $(GPU_RESULTS))

print-%:
	@echo '$($*)'

clean:
	rm -rf $(BUILD_DIR) results $(wildcard plots/lab*)

FORCE:

-include $(shell find $(BUILD_DIR) -name '*.d' 2>/dev/null)
