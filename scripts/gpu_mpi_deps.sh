# shellcheck shell=bash
# gpu_mpi_deps.sh: sourced by scripts/gpu_mpi.sh. On a GPU machine without Open MPI, use Debian's
# Open MPI packages unpacked with `dpkg -x` under .deps/mpiroot (download them on a Debian 12
# machine with:  apt-get download openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2
# libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libhwloc15 libibverbs1 libmunge2
# libnl-3-200 libnl-route-3-200 libpsm-infinipath1 libpsm2-2 libucx0 librdmacm1 libxnvctrl0
# libltdl7 libgfortran5 libquadmath0 libnuma1 libudev1  into .deps/mpi/, then
# `for f in .deps/mpi/*.deb; do dpkg -x "$f" .deps/mpiroot; done`: 36 MB; 20 MB without
# usr/share/doc, usr/share/man, the Fortran modules and libraries and openmpi/include/openmpi,
# which a C build and mpirun do not need; keep the .deb files out of .deps to carry less).
# Open MPI is relocatable: OPAL_PREFIX moves its compiled-in /usr; PMIx's plugins are found
# through PMIX_INSTALL_PREFIX and PMIX_MCA_mca_base_component_path. Appends CMake arguments that name
# mpi.h and libmpi directly (no compiler wrapper) to the array `args`. Used when no mpirun is
# installed, or when RC_MPI_DEPS is set.
mpiroot=$PWD/.deps/mpiroot/usr
if [ -d "$mpiroot" ] && { [ -n "${RC_MPI_DEPS:-}" ] || ! command -v mpirun >/dev/null 2>&1; }; then
    lib=$mpiroot/lib/x86_64-linux-gnu
    mkdir -p "$PWD/.deps/mpibin"
    for t in mpirun mpiexec; do ln -sf "$mpiroot/bin/orterun" "$PWD/.deps/mpibin/$t"; done
    export PATH="$PWD/.deps/mpibin:$mpiroot/bin:$PATH"
    export OPAL_PREFIX=$mpiroot
    export PMIX_INSTALL_PREFIX=$lib/pmix2 PMIX_MCA_mca_base_component_path=$lib/pmix2/lib/pmix
    export LD_LIBRARY_PATH="$lib/openmpi/lib:$lib/pmix2/lib:$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    args+=(-DMPI_C_HEADER_DIR="$lib/openmpi/include" -DMPI_C_LIB_NAMES=mpi
        -DMPI_mpi_LIBRARY="$lib/openmpi/lib/libmpi.so" -DMPI_SKIP_COMPILER_WRAPPER=ON)
fi
