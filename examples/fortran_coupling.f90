! SPDX-License-Identifier: MIT
! Example Fortran host: a mass on a spring (m = 2 kg, k = 50 N/m, released from x = 1 m) with a
! damper (c = 0.8 N s/m) that the host computes, coupled five ways, all built through the spec
! API and checked against the same damper built into the library and against the exact damped
! oscillation at t = 5 s:
!   1. built in (the spring's own damping)               the reference run
!   2. a load callback (bind(c)), no Jacobian            implicit coupling, more Newton iterations
!   3. a load callback with its Jacobian (bind(c))       as many Newton iterations as the built-in
!   4. a user element (bind(c)) for spring and damper    residual with K and C
!   5. the split step: rd_stepBegin, the host's damper force from the predicted velocity,
!      rd_setNodeLoad, rd_stepEnd                        explicit (staggered) coupling
! and a progress observer (bind(c)) and an error handler (bind(c)) on the way.
! Build (from the source root) against an installed rodrigues:
!   gfortran -std=f2018 $(pkg-config --variable=includedir rodrigues)/rodrigues/rodrigues.f90 \
!            examples/fortran_coupling.f90 $(pkg-config --libs rodrigues) -o fortran_coupling
module coupling_host
  use rodrigues
  implicit none

  real(c_double), parameter :: mass = 2, stiffness = 50, damping = 0.8d0
  real(c_double), parameter :: anchor = 101, rest = 101   ! spring to a far ground anchor on x

  ! what the callbacks see through their `user` pointer
  type :: host_state
    real(c_double) :: c = damping
    integer :: load_calls = 0, element_calls = 0, observer_calls = 0, errors = 0
    integer(c_int) :: last_error = 0
  end type

contains

  ! the host's damper: F = -c v on every node of the set
  integer(c_int) function damper_load(t, n, nodes, pose, vel, load, user) bind(c)
    real(c_double), value :: t
    integer(c_int), value :: n
    integer(c_int), intent(in) :: nodes(n)
    real(c_double), intent(in) :: pose(7, n), vel(6, n)
    real(c_double), intent(inout) :: load(6, n)
    type(c_ptr), value :: user
    type(host_state), pointer :: host
    call c_f_pointer(user, host)
    load(1:3, :) = -host%c * vel(1:3, :)
    host%load_calls = host%load_calls + 1
    damper_load = 0
  end function

  ! its Jacobian: d load / d v = -c I (row-major in C; symmetric, so the same here)
  integer(c_int) function damper_jacobian(t, n, nodes, pose, vel, dfdx, dfdv, user) bind(c)
    real(c_double), value :: t
    integer(c_int), value :: n
    integer(c_int), intent(in) :: nodes(n)
    real(c_double), intent(in) :: pose(7, n), vel(6, n)
    real(c_double), intent(inout) :: dfdx(6 * n, 6 * n), dfdv(6 * n, 6 * n)
    type(c_ptr), value :: user
    type(host_state), pointer :: host
    integer :: k, i
    call c_f_pointer(user, host)
    do k = 0, n - 1
      do i = 1, 3
        dfdv(6 * k + i, 6 * k + i) = -host%c
      end do
    end do
    damper_jacobian = 0
  end function

  ! spring and damper to the ground anchor as a user element on one point node: the residual
  ! is minus the force on the node, -(k e + c de/dt) u with u the unit vector to the anchor;
  ! K = k u u^T + k e / L (I - u u^T), C = c u u^T
  integer(c_int) function spring_element(t, n, nodes, pose, vel, acc, residual, K, C, M, user) &
      bind(c)
    real(c_double), value :: t
    integer(c_int), value :: n
    integer(c_int), intent(in) :: nodes(n)
    real(c_double), intent(in) :: pose(7, n), vel(6, n), acc(6, n)
    real(c_double), intent(inout) :: residual(6, n)
    real(c_double), intent(inout), optional :: K(6 * n, 6 * n), C(6 * n, 6 * n), M(6 * n, 6 * n)
    type(c_ptr), value :: user
    type(host_state), pointer :: host
    real(c_double) :: d(3), u(3), length, e, rate
    integer :: i, j
    call c_f_pointer(user, host)
    d = [anchor, 0d0, 0d0] - pose(1:3, 1)
    length = norm2(d)
    u = d / length
    e = length - rest
    rate = -dot_product(u, vel(1:3, 1))
    residual(1:3, 1) = -(stiffness * e + host%c * rate) * u
    if (present(K)) then
      do j = 1, 3
        do i = 1, 3
          K(i, j) = stiffness * u(i) * u(j)
          if (i == j) K(i, j) = K(i, j) + stiffness * e / length
          K(i, j) = K(i, j) - stiffness * e / length * u(i) * u(j)
          C(i, j) = host%c * u(i) * u(j)
        end do
      end do
    end if
    host%element_calls = host%element_calls + 1
    spring_element = 0
  end function

  ! progress: called by rd_advance every output.every steps and at the end
  integer(c_int) function progress(model, data, user) bind(c)
    type(c_ptr), value :: model, data, user
    type(host_state), pointer :: host
    call c_f_pointer(user, host)
    host%observer_calls = host%observer_calls + 1
    progress = 0
  end function

  ! errors: counted, the last status kept
  subroutine on_error(status, message, user) bind(c)
    integer(c_int), value :: status
    type(c_ptr), value :: message, user
    type(host_state), pointer :: host
    call c_f_pointer(user, host)
    host%errors = host%errors + 1
    host%last_error = status
  end subroutine

  ! the model; mode 1..5 as in the file's header
  integer(c_int) function build(ctx, mode, host, model) result(st)
    type(c_ptr), intent(in) :: ctx
    integer, intent(in) :: mode
    type(host_state), target, intent(inout) :: host
    type(c_ptr), intent(out) :: model
    character(kind=c_char, len=8), target, save :: n_mass = 'mass' // c_null_char, &
        n_body = 'm' // c_null_char, n_spring = 'spring' // c_null_char, &
        n_aero = 'aero' // c_null_char
    integer(c_int), target, save :: set(1)
    type(c_ptr) :: spec
    type(rdNodeDef) :: node
    type(rdPointMassDef) :: pm
    type(rdSpringDef) :: sp
    type(rdLoadCallbackDef) :: cb
    type(rdUserElementDef) :: ue
    model = c_null_ptr
    st = rd_createSpec(ctx, spec)
    if (st /= RD_OK) return
    node = rd_defaultNodeDef()
    node%name = c_loc(n_mass)
    node%kind = RD_NODE_POINT
    node%position = [1d0, 0d0, 0d0]
    set(1) = rds_addNode(spec, node)
    pm = rd_defaultPointMassDef()
    pm%name = c_loc(n_body)
    pm%node = set(1)
    pm%mass = mass
    st = min(set(1), rds_addPointMass(spec, pm))
    if (mode == 4) then
      ue = rd_defaultUserElementDef()
      ue%name = c_loc(n_spring)
      ue%nnode = 1
      ue%nodes = c_loc(set)
      ue%callback = c_funloc(spring_element)
      ue%user = c_loc(host)
      st = min(st, rds_addUserElement(spec, ue))
    else
      sp = rd_defaultSpringDef()
      sp%name = c_loc(n_spring)
      sp%node = [set(1), RD_GROUND]
      sp%anchor = [anchor, 0d0, 0d0]
      sp%stiffness(1) = stiffness
      sp%rest_length = rest
      if (mode == 1) sp%damping = damping
      st = min(st, rds_addSpring(spec, sp))
    end if
    if (mode == 2 .or. mode == 3) then
      cb = rd_defaultLoadCallbackDef()
      cb%name = c_loc(n_aero)
      cb%nnode = 1
      cb%nodes = c_loc(set)
      cb%callback = c_funloc(damper_load)
      if (mode == 3) cb%jacobian = c_funloc(damper_jacobian)
      cb%user = c_loc(host)
      st = min(st, rds_addLoadCallback(spec, cb))
    end if
    if (st >= 0) st = rds_setOption(spec, rd_cstr('solver.time_step'), rd_cstr('0.001'))
    if (st >= 0) st = rds_setOption(spec, rd_cstr('solver.rho_inf'), rd_cstr('0.9'))
    if (st >= 0) st = rds_setOption(spec, rd_cstr('solver.atol'), rd_cstr('1e-12'))
    if (st >= 0) st = rds_setOption(spec, rd_cstr('solver.rtol'), rd_cstr('1e-10'))
    ! Newton far inside its tolerance (the last correction within it): the couplings are
    ! compared to 1e-8, and without a Jacobian each step's Newton error is of the tolerance's size
    if (st >= 0) st = rds_setOption(spec, rd_cstr('solver.newton_test'), rd_cstr('increment'))
    if (st >= 0) st = rds_setOption(spec, rd_cstr('solver.final_time'), rd_cstr('5'))
    if (st >= 0) st = rds_setOption(spec, rd_cstr('output.every'), rd_cstr('100'))
    if (st >= 0) st = rd_compile(spec, model)
    call rd_destroySpec(spec)
    st = min(st, RD_OK)
  end function

  ! run mode to t = 5; x: final position, newton: Newton iterations
  integer(c_int) function run(ctx, mode, host, x, newton) result(st)
    type(c_ptr), intent(in) :: ctx
    integer, intent(in) :: mode
    type(host_state), target, intent(inout) :: host
    real(c_double), intent(out) :: x(3)
    integer(c_long), intent(out) :: newton
    type(c_ptr) :: model, data
    type(rdStats) :: stats
    real(c_double) :: v(3), h, force(3)
    integer :: i
    data = c_null_ptr
    x = 0
    newton = 0
    st = build(ctx, mode, host, model)
    if (st == RD_OK) st = rd_createData(model, data)
    if (st == RD_OK) st = rd_initialize(model, data)
    if (st == RD_OK .and. mode /= 5) then
      ! the library steps to the final time, reporting progress
      st = rd_advance(model, data, rd_getOptionReal(model, rd_cstr('solver.final_time')), &
                      c_funloc(progress), c_loc(host))
    else if (st == RD_OK) then
      ! the host steps: predictor, the host's load from the predicted velocity, corrector
      h = 1d-3
      do i = 1, 5000
        st = rd_stepBegin(model, data, h)
        if (st /= RD_OK) exit
        st = rd_getNodeState(model, data, 0_c_int, v=v)
        force = -host%c * v
        if (st == RD_OK) st = rd_setNodeLoad(model, data, 0_c_int, force, [0d0, 0d0, 0d0])
        if (st == RD_OK) st = rd_stepEnd(model, data)
        if (st /= RD_OK) exit  ! > 0 would ask for a smaller step: not needed here
        host%load_calls = host%load_calls + 1
      end do
    end if
    if (st == RD_OK) st = rd_getNodeState(model, data, 0_c_int, x=x)
    if (st == RD_OK) st = rd_getStats(data, stats)
    newton = stats%newton_iterations
    call rd_destroyData(data)
    call rd_destroyModel(model)
  end function
end module coupling_host


program fortran_coupling
  use coupling_host
  implicit none
  type(c_ptr) :: ctx, spec
  type(host_state), target :: host(5)
  real(c_double) :: x(3, 5), exact, z, w0, wd
  integer(c_long) :: newton(5)
  integer(c_int) :: st
  integer :: mode
  character(len=*), parameter :: label(5) = [character(len=24) :: 'built-in damper', &
      'load callback', 'load callback + Jacobian', 'user element', 'split step']
  logical :: ok

  st = rd_createContext(ctx)
  if (st /= RD_OK) error stop 1
  st = rd_setErrorHandler(ctx, c_funloc(on_error), c_loc(host(1)))
  ! a wrong option key is an error that names the key: the handler sees it
  st = rd_createSpec(ctx, spec)
  if (st == RD_OK) st = rds_setOption(spec, rd_cstr('solver.no_such_key'), rd_cstr('1'))
  call rd_destroySpec(spec)
  do mode = 1, 5
    st = run(ctx, mode, host(mode), x(:, mode), newton(mode))
    if (st /= RD_OK) then
      print '(a, i0, a)', 'fortran_coupling: mode ', mode, ': ' // rd_lastError(ctx)
      error stop 2
    end if
  end do
  z = damping / (2 * sqrt(stiffness * mass))
  w0 = sqrt(stiffness / mass)
  wd = w0 * sqrt(1 - z * z)
  exact = exp(-z * w0 * 5) * (cos(wd * 5) + z * w0 / wd * sin(wd * 5))
  do mode = 1, 5
    print '(a24, a, f18.15, a, i6, a, es9.2)', label(mode), ': x(5) = ', x(1, mode), &
        ', Newton iterations', newton(mode), ', off the built-in by', abs(x(1, mode) - x(1, 1))
  end do
  print '(a24, a, f18.15, a, es9.2)', 'exact', ': x(5) = ', exact, ', built-in off by', &
      abs(x(1, 1) - exact)
  print '(a, 3(i0, 1x), a, i0)', 'callback calls (load, element, progress): ', &
      host(3)%load_calls, host(4)%element_calls, host(1)%observer_calls, &
      '; errors seen by the handler: ', host(1)%errors
  ok = abs(x(1, 1) - exact) < 1d-4 .and. abs(x(1, 2) - x(1, 1)) < 1d-8 .and. &
       abs(x(1, 3) - x(1, 1)) < 1d-8 .and. abs(x(1, 4) - x(1, 1)) < 1d-8 .and. &
       newton(3) == newton(1) .and. newton(2) > newton(1) .and. &
       abs(x(1, 5) - exact) < 1d-3 .and. host(1)%observer_calls == 50 .and. &
       host(2)%observer_calls == 50 .and. host(1)%errors == 1 .and. &
       host(1)%last_error == RD_ERR_ARG .and. host(5)%load_calls == 5000
  call rd_destroyContext(ctx)
  if (.not. ok) then
    print '(a)', 'MISMATCH'
    error stop 3
  end if
  print '(a)', 'OK'
end program fortran_coupling
