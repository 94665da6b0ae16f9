! SPDX-License-Identifier: MIT
! Fortran bindings (ISO_C_BINDING, Fortran 2018) of the whole rodrigues C API: every RD_API
! function of include/rodrigues/*.h under its C name (tools/check_fortran.py checks that none
! is missing), the definition structs as bind(c) derived types, the enums and constants as
! parameters, and abstract interfaces of the callbacks (write a bind(c) procedure with that
! interface and pass c_funloc(proc)).
! Compile this file with your program, e.g.
!   gfortran -std=f2018 $(pkg-config --variable=includedir rodrigues)/rodrigues/rodrigues.f90 \
!            host.f90 $(pkg-config --libs rodrigues)
! Conventions:
!   - handles (context, spec, model, data, writers) are type(c_ptr); statuses are
!     integer(c_int): 0 ok, > 0 recoverable, < 0 error; rds_add* return an index (>= 0) or a
!     negative status;
!   - indices (nodes, joints, beams, ...) are 0-based, as in C;
!   - strings passed to the library must be NUL-terminated: rd_cstr('text'); functions that
!     return a C string (rd_lastError, rd_version, rd_nodeName, ...) return a Fortran string
!     here (their raw interfaces are NAME_c);
!   - arrays are column-major: a C array n x 7 (row-major) is real(c_double) :: a(7, n);
!   - output arguments that C lets be NULL are optional (omit them or pass them by keyword).
module rodrigues
  use, intrinsic :: iso_c_binding
  implicit none

  ! export.h, spec.h, geometry.h, simulate.h: constants
  integer(c_int), parameter :: RD_VERSION_MAJOR = 0
  integer(c_int), parameter :: RD_VERSION_MINOR = 1
  integer(c_int), parameter :: RD_VERSION_PATCH = 0
  integer(c_int), parameter :: RD_GROUND = -1
  integer(c_int), parameter :: RD_NO_TIMEFN = -1
  integer(c_int), parameter :: RD_BEAM_MAX_NODES = 32
  integer(c_int), parameter :: RD_BEAM_LINE_MAX_POINTS = 64
  integer(c_int), parameter :: RD_STEPCUT_LOG = 16
  integer(c_int), parameter :: RD_STEPCUT_REASON = 320

  ! rdStatus
  integer(c_int), parameter :: RD_OK = 0
  integer(c_int), parameter :: RD_RECOVER_NEWTON = 1
  integer(c_int), parameter :: RD_RECOVER_SINGULAR = 2
  integer(c_int), parameter :: RD_RECOVER_NONFINITE = 3
  integer(c_int), parameter :: RD_RECOVER_CALLBACK = 4
  integer(c_int), parameter :: RD_ERR_ARG = -1
  integer(c_int), parameter :: RD_ERR_NOMEM = -2
  integer(c_int), parameter :: RD_ERR_IO = -3
  integer(c_int), parameter :: RD_ERR_DECK = -4
  integer(c_int), parameter :: RD_ERR_MODEL = -5
  integer(c_int), parameter :: RD_ERR_STATE = -6
  integer(c_int), parameter :: RD_ERR_UNSUPPORTED = -7
  integer(c_int), parameter :: RD_ERR_NUMERIC = -8
  integer(c_int), parameter :: RD_ERR_CALLBACK = -9
  integer(c_int), parameter :: RD_ERR_HANDLE = -10
  integer(c_int), parameter :: RD_ERR_LIBRARY = -11
  ! rdFrame
  integer(c_int), parameter :: RD_FRAME_GLOBAL = 0
  integer(c_int), parameter :: RD_FRAME_BODY = 1
  ! spec.h: rdSubsystemPredictor (mixed stepping)
  integer(c_int), parameter :: RD_SUBSYSTEM_PREDICT_SUBSTEPS = 0
  integer(c_int), parameter :: RD_SUBSYSTEM_PREDICT_TAYLOR = 1
  ! rdNodeKind
  integer(c_int), parameter :: RD_NODE_RIGID = 0
  integer(c_int), parameter :: RD_NODE_POINT = 1
  ! rdObjKind
  integer(c_int), parameter :: RD_OBJ_NODE = 0
  integer(c_int), parameter :: RD_OBJ_ELEMENT = 1
  integer(c_int), parameter :: RD_OBJ_JOINT = 2
  integer(c_int), parameter :: RD_OBJ_LOAD = 3
  integer(c_int), parameter :: RD_OBJ_TIMEFN = 4
  integer(c_int), parameter :: RD_OBJ_TORQUE = 5
  integer(c_int), parameter :: RD_OBJ_OPTION = 6
  integer(c_int), parameter :: RD_OBJ_BEAM = 7
  integer(c_int), parameter :: RD_OBJ_SUBSYSTEM = 8
  integer(c_int), parameter :: RD_OBJ_COUNT = 9
  ! rdTimeFnType
  integer(c_int), parameter :: RD_TIMEFN_CONSTANT = 0
  integer(c_int), parameter :: RD_TIMEFN_STEPS = 1
  integer(c_int), parameter :: RD_TIMEFN_LINEAR = 2
  integer(c_int), parameter :: RD_TIMEFN_EXPRESSION = 3
  integer(c_int), parameter :: RD_TIMEFN_CALLBACK = 4
  ! rdBeamQuadrature
  integer(c_int), parameter :: RD_BEAM_QUADRATURE_FULL = 0
  integer(c_int), parameter :: RD_BEAM_QUADRATURE_REDUCED = 1
  integer(c_int), parameter :: RD_BEAM_QUADRATURE_STATIONS = 2
  ! rdBeamRotationField
  integer(c_int), parameter :: RD_BEAM_ROTATION_TOTAL = 0
  integer(c_int), parameter :: RD_BEAM_ROTATION_DISPLACEMENT = 1
  ! rdBeamVirtualRotation
  integer(c_int), parameter :: RD_BEAM_VIRTUAL_ROTATION_FIELD = 0
  integer(c_int), parameter :: RD_BEAM_VIRTUAL_ROTATION_INTERPOLATED = 1
  ! rdJointType
  integer(c_int), parameter :: RD_JOINT_FIXED = 0
  integer(c_int), parameter :: RD_JOINT_RIGID = 1
  integer(c_int), parameter :: RD_JOINT_SPHERICAL = 2
  integer(c_int), parameter :: RD_JOINT_REVOLUTE = 3
  integer(c_int), parameter :: RD_JOINT_UNIVERSAL = 4
  integer(c_int), parameter :: RD_JOINT_PRISMATIC = 5
  integer(c_int), parameter :: RD_JOINT_CYLINDRICAL = 6
  integer(c_int), parameter :: RD_JOINT_PLANAR = 7
  integer(c_int), parameter :: RD_JOINT_PRESCRIBED = 8
  integer(c_int), parameter :: RD_JOINT_ROTATION_CONTROL = 9
  integer(c_int), parameter :: RD_JOINT_COUNT = 10
  ! rdLoadKind
  integer(c_int), parameter :: RD_LOAD_FORCE = 0
  integer(c_int), parameter :: RD_LOAD_MOMENT = 1
  ! rdTorqueLawType
  integer(c_int), parameter :: RD_TORQUE_COULOMB_WALL = 0
  integer(c_int), parameter :: RD_TORQUE_EXPRESSION = 1
  integer(c_int), parameter :: RD_TORQUE_CALLBACK = 2
  ! rdBeamLineKind
  integer(c_int), parameter :: RD_BEAM_LINE_NONE = 0
  integer(c_int), parameter :: RD_BEAM_LINE_STRAIGHT = 1
  integer(c_int), parameter :: RD_BEAM_LINE_ARC = 2
  integer(c_int), parameter :: RD_BEAM_LINE_SPLINE = 3
  ! rdMethod
  integer(c_int), parameter :: RD_METHOD_GENERALIZED_ALPHA = 0
  integer(c_int), parameter :: RD_METHOD_STATIC = 1
  integer(c_int), parameter :: RD_METHOD_NMB = 2
  integer(c_int), parameter :: RD_METHOD_NMS = 3
  integer(c_int), parameter :: RD_METHOD_LIEMID_E1 = 4
  integer(c_int), parameter :: RD_METHOD_LIEMID_E2 = 5
  integer(c_int), parameter :: RD_METHOD_LIEMID_EA = 6
  integer(c_int), parameter :: RD_METHOD_LIEMID_I = 7
  integer(c_int), parameter :: RD_METHOD_SW = 8
  integer(c_int), parameter :: RD_METHOD_HSTAGM = 9
  integer(c_int), parameter :: RD_METHOD_AKW = 10
  integer(c_int), parameter :: RD_METHOD_COUNT = 11
  ! rdCaseState
  integer(c_int), parameter :: RD_CASE_MISSING = 0
  integer(c_int), parameter :: RD_CASE_OK = 1
  integer(c_int), parameter :: RD_CASE_FAILED = 2
  integer(c_int), parameter :: RD_CASE_ERROR = 3
  integer(c_int), parameter :: RD_CASE_CRASHED = 4
  integer(c_int), parameter :: RD_CASE_STALE = 5
  ! restart.h: flags of rd_readCheckpointFlags
  integer(c_int), parameter :: RD_CHECKPOINT_ACCEPT_CHANGES = 1

  ! modal.h
  integer(c_int), parameter :: RD_MODAL_DENSE_MAX = 800
  integer(c_int), parameter :: RD_SS_MAX_STATES = 4000
  ! rdLinMatrix
  integer(c_int), parameter :: RD_LIN_M = 0
  integer(c_int), parameter :: RD_LIN_D = 1
  integer(c_int), parameter :: RD_LIN_K = 2
  integer(c_int), parameter :: RD_LIN_B = 3
  integer(c_int), parameter :: RD_LIN_N = 4
  integer(c_int), parameter :: RD_LIN_MR = 5
  integer(c_int), parameter :: RD_LIN_DR = 6
  integer(c_int), parameter :: RD_LIN_KR = 7
  integer(c_int), parameter :: RD_LIN_COUNT = 8
  ! rdEigenSolver
  integer(c_int), parameter :: RD_EIGEN_AUTO = 0
  integer(c_int), parameter :: RD_EIGEN_DENSE = 1
  integer(c_int), parameter :: RD_EIGEN_ARPACK = 2
  ! rdModeKind
  integer(c_int), parameter :: RD_MODE_RIGID = 0
  integer(c_int), parameter :: RD_MODE_AXIAL = 1
  integer(c_int), parameter :: RD_MODE_TORSION = 2
  integer(c_int), parameter :: RD_MODE_FLAP = 3
  integer(c_int), parameter :: RD_MODE_EDGE = 4
  integer(c_int), parameter :: RD_MODE_BENDING_Y = 5
  integer(c_int), parameter :: RD_MODE_BENDING_Z = 6
  integer(c_int), parameter :: RD_MODE_SHEAR = 7
  integer(c_int), parameter :: RD_MODE_OTHER = 8
  integer(c_int), parameter :: RD_MODE_KIND_COUNT = 9
  ! rdSsInputKind
  integer(c_int), parameter :: RD_SS_FORCE = 0
  integer(c_int), parameter :: RD_SS_MOMENT = 1
  integer(c_int), parameter :: RD_SS_MOTION = 2
  ! rdSsOutputKind
  integer(c_int), parameter :: RD_SS_DISPLACEMENT = 0
  integer(c_int), parameter :: RD_SS_ROTATION = 1
  integer(c_int), parameter :: RD_SS_VELOCITY = 2
  integer(c_int), parameter :: RD_SS_ANGULAR_VELOCITY = 3
  integer(c_int), parameter :: RD_SS_REACTION_FORCE = 4
  integer(c_int), parameter :: RD_SS_REACTION_MOMENT = 5

  ! definition structs and result structs, field for field as in C
  type, bind(c) :: rdAllocator
    type(c_ptr) :: malloc
    type(c_ptr) :: free
    type(c_ptr) :: user
  end type
  type, bind(c) :: rdNodeDef
    type(c_ptr) :: name
    integer(c_int) :: kind
    real(c_double) :: position(3)
    real(c_double) :: orientation(4)
    real(c_double) :: velocity(3)
    real(c_double) :: angular_velocity(3)
    integer(c_int) :: angular_velocity_frame
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdTimeFnDef
    type(c_ptr) :: name
    integer(c_int) :: type
    real(c_double) :: value
    integer(c_int) :: npoint
    type(c_ptr) :: t
    type(c_ptr) :: y
    type(c_ptr) :: expression
    type(c_funptr) :: callback
    type(c_ptr) :: user
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdRigidBodyDef
    type(c_ptr) :: name
    integer(c_int) :: node
    real(c_double) :: mass
    real(c_double) :: inertia(9)
    real(c_double) :: com(3)
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdPointMassDef
    type(c_ptr) :: name
    integer(c_int) :: node
    real(c_double) :: mass
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdSpringDef
    type(c_ptr) :: name
    integer(c_int) :: node(2)
    real(c_double) :: anchor(3)
    real(c_double) :: stiffness(3)
    real(c_double) :: damping
    real(c_double) :: rest_length
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdBushingDef
    type(c_ptr) :: name
    integer(c_int) :: node(2)
    real(c_double) :: stiffness(36)
    real(c_double) :: damping(36)
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdSubsystemDef
    type(c_ptr) :: name
    integer(c_int) :: nbody
    type(c_ptr) :: nodes
    integer(c_int) :: method
    integer(c_int) :: substeps
    integer(c_int) :: predictor
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdBeamDef
    type(c_ptr) :: name
    integer(c_int) :: nnode
    type(c_ptr) :: nodes
    integer(c_int) :: nstation
    type(c_ptr) :: station
    type(c_ptr) :: stiffness
    type(c_ptr) :: mass
    real(c_double) :: damping(6)
    integer(c_int) :: quadrature
    integer(c_int) :: rotation_field
    integer(c_int) :: virtual_rotation
    real(c_double) :: span(2)
    real(c_double) :: force(3)
    real(c_double) :: moment(3)
    integer(c_int) :: load_frame
    integer(c_int) :: timefn
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdJointDef
    type(c_ptr) :: name
    integer(c_int) :: type
    integer(c_int) :: node(2)
    real(c_double) :: point(3)
    real(c_double) :: axis(3)
    real(c_double) :: axis2(3)
    integer(c_int) :: angle_fn
    integer(c_int) :: torque_fn
    real(c_double) :: torque
    integer(c_int) :: motion_fn(6)
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdLoadDef
    type(c_ptr) :: name
    integer(c_int) :: node
    integer(c_int) :: kind
    integer(c_int) :: frame
    real(c_double) :: value(3)
    integer(c_int) :: timefn
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdTorqueLawDef
    type(c_ptr) :: name
    integer(c_int) :: node
    integer(c_int) :: type
    real(c_double) :: param(2)
    type(c_ptr) :: expression(3)
    type(c_funptr) :: callback
    type(c_ptr) :: user
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdLoadCallbackDef
    type(c_ptr) :: name
    integer(c_int) :: nnode
    type(c_ptr) :: nodes
    type(c_funptr) :: callback
    type(c_ptr) :: user
    type(c_funptr) :: jacobian
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdUserElementDef
    type(c_ptr) :: name
    integer(c_int) :: nnode
    type(c_ptr) :: nodes
    type(c_funptr) :: callback
    type(c_ptr) :: user
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdBeamLine
    integer(c_int) :: kind
    real(c_double) :: length
    real(c_double) :: a(3)
    real(c_double) :: b(3)
    real(c_double) :: c(3)
    real(c_double) :: r0(3)
    real(c_double) :: n(3)
    real(c_double) :: angle
    integer(c_int) :: nk
    real(c_double) :: u(64)
    real(c_double) :: p(3, 64)
    real(c_double) :: m2(3, 64)
    real(c_double) :: sk(64)
  end type
  type, bind(c) :: rdModelInfo
    integer(c_int) :: nnode
    integer(c_int) :: nelement
    integer(c_int) :: nrigid_body
    integer(c_int) :: njoint
    integer(c_int) :: nload
    integer(c_int) :: ntorque_law
    integer(c_int) :: ntimefn
    integer(c_int) :: ndof
    integer(c_int) :: nconstraint
    integer(c_int) :: noutput
    integer(c_int) :: method
    integer(c_int) :: nbeam
    type(c_ptr) :: linear_solver
    integer(c_int) :: nuser_element
    integer(c_int) :: noutput_reaction
    integer(c_int) :: noutput_section
    integer(c_int) :: nsubsystem
  end type
  type, bind(c) :: rdSubsystemInfo
    type(c_ptr) :: name
    integer(c_int) :: method
    integer(c_int) :: substeps
    integer(c_int) :: nbody
  end type
  type, bind(c) :: rdStats
    integer(c_long) :: steps
    integer(c_long) :: rejected_steps
    integer(c_long) :: newton_iterations
    integer(c_long) :: factorizations
    integer(c_long) :: load_evaluations
    integer(c_int) :: last_newton_iterations
    real(c_double) :: min_rcond
    real(c_double) :: min_step
    real(c_double) :: wall_time
    integer(c_int) :: redundant_constraints
    integer(c_int) :: unchecked_constraints
    integer(c_int) :: max_newton_iterations
    real(c_double) :: error_estimate
    real(c_double) :: max_local_error
    integer(c_long) :: error_rejections
    real(c_double) :: max_step
    integer(c_long) :: substep_iterations
  end type
  type, bind(c) :: rdStepCut
    real(c_double) :: t
    real(c_double) :: h
    integer(c_int) :: status
    character(kind=c_char) :: reason(320)
  end type
  type, bind(c) :: rdCaseResult
    integer(c_int) :: state
    integer(c_int) :: exit_code
    real(c_double) :: wall_time
    integer(c_long) :: steps
    integer(c_long) :: rejected_steps
    type(c_ptr) :: values
    character(kind=c_char) :: error(1024)
  end type
  type, bind(c) :: rdRunStatus
    type(c_ptr) :: status
    type(c_ptr) :: error
    integer(c_long) :: rows
    real(c_double) :: wall_time
  end type
  ! modal.h
  type, bind(c) :: rdLinearizeDef
    real(c_double) :: spin_rate
    real(c_double) :: spin_axis(3)
    real(c_double) :: spin_center(3)
    integer(c_int) :: steady
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdLinearizationInfo
    integer(c_int) :: ndof
    integer(c_int) :: nconstraint
    integer(c_int) :: rank
    integer(c_int) :: nreduced
    real(c_double) :: time
    real(c_double) :: spin_rate
    integer(c_int) :: symmetric
    real(c_double) :: residual
    integer(c_int) :: steady_iterations
  end type
  type, bind(c) :: rdModalDef
    integer(c_int) :: count
    integer(c_int) :: solver
    integer(c_int) :: general
    real(c_double) :: shift_hz
    real(c_double) :: tolerance
    integer(c_int) :: max_restarts
    real(c_double) :: flap_axis(3)
    real(c_double) :: rigid_tol_hz
    integer(c_int) :: cookie_
  end type
  type, bind(c) :: rdModeInfo
    real(c_double) :: eigenvalue(2)
    real(c_double) :: frequency_hz
    real(c_double) :: natural_hz
    real(c_double) :: damping_ratio
    integer(c_int) :: kind
    integer(c_int) :: kind_index
    real(c_double) :: energy(5)
    real(c_double) :: mass_fraction(6)
    real(c_double) :: modal_mass
  end type
  type, bind(c) :: rdModesInfo
    integer(c_int) :: solver
    integer(c_int) :: symmetric
    integer(c_int) :: converged
    integer(c_int) :: restarts
    integer(c_int) :: products
    real(c_double) :: sigma
    real(c_double) :: length
    real(c_double) :: scale_hz
    real(c_double) :: spin_rate
    real(c_double) :: time
  end type
  type, bind(c) :: rdSsChannel
    integer(c_int) :: kind
    integer(c_int) :: index
    integer(c_int) :: component
  end type

  ! the callbacks: write a procedure with one of these interfaces and pass c_funloc(it) where
  ! the C API takes the function pointer (definition fields, rd_setErrorHandler, rd_advance)
  abstract interface
    ! context.h rdErrorHandler: message is a C string (rd_fstr(message))
    subroutine rdErrorHandler(status, message, user) bind(c)
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr), value :: message, user
    end subroutine
    ! context.h rdWarningHandler
    subroutine rdWarningHandler(message, user) bind(c)
      import :: c_ptr
      type(c_ptr), value :: message, user
    end subroutine
    ! spec.h rdTimeFnCallback: value = f(t); dvalue = (f', f''), absent when C passes NULL
    integer(c_int) function rdTimeFnCallback(t, value, dvalue, user) bind(c)
      import :: c_int, c_double, c_ptr
      real(c_double), value :: t
      real(c_double), intent(out) :: value
      real(c_double), intent(out), optional :: dvalue(2)
      type(c_ptr), value :: user
    end function
    ! spec.h rdTorqueCallback: R row-major 3x3 (R(j + 3 i) is C's R[3 i + j])
    integer(c_int) function rdTorqueCallback(t, R, torque, user) bind(c)
      import :: c_int, c_double, c_ptr
      real(c_double), value :: t
      real(c_double), intent(in) :: R(9)
      real(c_double), intent(out) :: torque(3)
      type(c_ptr), value :: user
    end function
    ! spec.h rdNodeLoadCallback: pose(7, n), vel(6, n), load(6, n) (zeroed on entry)
    integer(c_int) function rdNodeLoadCallback(t, n, nodes, pose, vel, load, user) bind(c)
      import :: c_int, c_double, c_ptr
      real(c_double), value :: t
      integer(c_int), value :: n
      integer(c_int), intent(in) :: nodes(n)
      real(c_double), intent(in) :: pose(7, n), vel(6, n)
      real(c_double), intent(inout) :: load(6, n)
      type(c_ptr), value :: user
    end function
    ! spec.h rdNodeLoadJacobian: dfdx, dfdv are C's row-major 6n x 6n matrices, so dfdx(j, i)
    ! here is row i, column j there (zeroed on entry)
    integer(c_int) function rdNodeLoadJacobian(t, n, nodes, pose, vel, dfdx, dfdv, user) bind(c)
      import :: c_int, c_double, c_ptr
      real(c_double), value :: t
      integer(c_int), value :: n
      integer(c_int), intent(in) :: nodes(n)
      real(c_double), intent(in) :: pose(7, n), vel(6, n)
      real(c_double), intent(inout) :: dfdx(6 * n, 6 * n), dfdv(6 * n, 6 * n)
      type(c_ptr), value :: user
    end function
    ! spec.h rdUserElementCallback: residual(6, n); K, C, M absent when C passes NULL (only the
    ! residual is needed), else row-major 6n x 6n as for the load Jacobian
    integer(c_int) function rdUserElementCallback(t, n, nodes, pose, vel, acc, residual, K, C, M, &
                                                  user) bind(c)
      import :: c_int, c_double, c_ptr
      real(c_double), value :: t
      integer(c_int), value :: n
      integer(c_int), intent(in) :: nodes(n)
      real(c_double), intent(in) :: pose(7, n), vel(6, n), acc(6, n)
      real(c_double), intent(inout) :: residual(6, n)
      real(c_double), intent(inout), optional :: K(6 * n, 6 * n), C(6 * n, 6 * n), M(6 * n, 6 * n)
      type(c_ptr), value :: user
    end function
    ! simulate.h rdObserver: return 0 to continue
    integer(c_int) function rdObserver(model, data, user) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: model, data, user
    end function
    ! simulate.h rdStepCallback: after every step of rd_advance; return 0 to continue
    integer(c_int) function rdStepCallback(model, data, user) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: model, data, user
    end function
  end interface

  ! the C API, header by header
  interface
    ! status.h
    type(c_ptr) function rd_statusString_c(status) bind(c, name='rd_statusString')
      import :: c_int, c_ptr
      integer(c_int), value :: status
    end function
    type(c_ptr) function rd_statusName_c(status) bind(c, name='rd_statusName')
      import :: c_int, c_ptr
      integer(c_int), value :: status
    end function
    ! context.h
    integer(c_int) function rd_createContext(ctx, alloc) bind(c, name='rd_createContext')
      import :: c_int, c_ptr, rdAllocator
      type(c_ptr), intent(out) :: ctx
      type(rdAllocator), intent(in), optional :: alloc
    end function
    subroutine rd_destroyContext(ctx) bind(c, name='rd_destroyContext')
      import :: c_ptr
      type(c_ptr), intent(inout) :: ctx
    end subroutine
    integer(c_int) function rd_setErrorHandler(ctx, handler, user) &
        bind(c, name='rd_setErrorHandler')
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: ctx
      type(c_funptr), value :: handler
      type(c_ptr), value :: user
    end function
    integer(c_int) function rd_setWarningHandler(ctx, handler, user) &
        bind(c, name='rd_setWarningHandler')
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: ctx
      type(c_funptr), value :: handler
      type(c_ptr), value :: user
    end function
    integer(c_int) function rd_lastStatus(ctx) bind(c, name='rd_lastStatus')
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
    end function
    type(c_ptr) function rd_lastError_c(ctx) bind(c, name='rd_lastError')
      import :: c_ptr
      type(c_ptr), value :: ctx
    end function
    integer(c_int) function rd_lastErrorLocation(ctx, file, line, func) &
        bind(c, name='rd_lastErrorLocation')
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      type(c_ptr), intent(out), optional :: file
      integer(c_int), intent(out), optional :: line
      type(c_ptr), intent(out), optional :: func
    end function
    subroutine rd_clearError(ctx) bind(c, name='rd_clearError')
      import :: c_ptr
      type(c_ptr), value :: ctx
    end subroutine
    type(c_ptr) function rd_version_c() bind(c, name='rd_version')
      import :: c_ptr
    end function
    ! spec.h
    integer(c_int) function rd_createSpec(ctx, spec) bind(c, name='rd_createSpec')
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      type(c_ptr), intent(out) :: spec
    end function
    subroutine rd_destroySpec(spec) bind(c, name='rd_destroySpec')
      import :: c_ptr
      type(c_ptr), intent(inout) :: spec
    end subroutine
    type(c_ptr) function rds_context(spec) bind(c, name='rds_context')
      import :: c_ptr
      type(c_ptr), value :: spec
    end function
    integer(c_int) function rds_setOrigin(spec, kind, index, origin) bind(c, name='rds_setOrigin')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: spec
      integer(c_int), value :: kind
      integer(c_int), value :: index
      character(kind=c_char), dimension(*), intent(in) :: origin
    end function
    integer(c_int) function rds_find(spec, kind, name) bind(c, name='rds_find')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: spec
      integer(c_int), value :: kind
      character(kind=c_char), dimension(*), intent(in) :: name
    end function
    integer(c_int) function rds_count(spec, kind) bind(c, name='rds_count')
      import :: c_int, c_ptr
      type(c_ptr), value :: spec
      integer(c_int), value :: kind
    end function
    type(rdNodeDef) function rd_defaultNodeDef() bind(c, name='rd_defaultNodeDef')
      import :: rdNodeDef
    end function
    integer(c_int) function rds_addNode(spec, def) bind(c, name='rds_addNode')
      import :: c_int, c_ptr, rdNodeDef
      type(c_ptr), value :: spec
      type(rdNodeDef), intent(in) :: def
    end function
    type(rdTimeFnDef) function rd_defaultTimeFnDef() bind(c, name='rd_defaultTimeFnDef')
      import :: rdTimeFnDef
    end function
    integer(c_int) function rds_addTimeFn(spec, def) bind(c, name='rds_addTimeFn')
      import :: c_int, c_ptr, rdTimeFnDef
      type(c_ptr), value :: spec
      type(rdTimeFnDef), intent(in) :: def
    end function
    type(rdRigidBodyDef) function rd_defaultRigidBodyDef() bind(c, name='rd_defaultRigidBodyDef')
      import :: rdRigidBodyDef
    end function
    type(rdPointMassDef) function rd_defaultPointMassDef() bind(c, name='rd_defaultPointMassDef')
      import :: rdPointMassDef
    end function
    type(rdSpringDef) function rd_defaultSpringDef() bind(c, name='rd_defaultSpringDef')
      import :: rdSpringDef
    end function
    type(rdBushingDef) function rd_defaultBushingDef() bind(c, name='rd_defaultBushingDef')
      import :: rdBushingDef
    end function
    integer(c_int) function rds_addRigidBody(spec, def) bind(c, name='rds_addRigidBody')
      import :: c_int, c_ptr, rdRigidBodyDef
      type(c_ptr), value :: spec
      type(rdRigidBodyDef), intent(in) :: def
    end function
    integer(c_int) function rds_addPointMass(spec, def) bind(c, name='rds_addPointMass')
      import :: c_int, c_ptr, rdPointMassDef
      type(c_ptr), value :: spec
      type(rdPointMassDef), intent(in) :: def
    end function
    integer(c_int) function rds_addSpring(spec, def) bind(c, name='rds_addSpring')
      import :: c_int, c_ptr, rdSpringDef
      type(c_ptr), value :: spec
      type(rdSpringDef), intent(in) :: def
    end function
    integer(c_int) function rds_addBushing(spec, def) bind(c, name='rds_addBushing')
      import :: c_int, c_ptr, rdBushingDef
      type(c_ptr), value :: spec
      type(rdBushingDef), intent(in) :: def
    end function
    type(rdSubsystemDef) function rd_defaultSubsystemDef() bind(c, name='rd_defaultSubsystemDef')
      import :: rdSubsystemDef
    end function
    integer(c_int) function rds_addSubsystem(spec, def) bind(c, name='rds_addSubsystem')
      import :: c_int, c_ptr, rdSubsystemDef
      type(c_ptr), value :: spec
      type(rdSubsystemDef), intent(in) :: def
    end function
    type(rdBeamDef) function rd_defaultBeamDef() bind(c, name='rd_defaultBeamDef')
      import :: rdBeamDef
    end function
    integer(c_int) function rds_addBeam(spec, def) bind(c, name='rds_addBeam')
      import :: c_int, c_ptr, rdBeamDef
      type(c_ptr), value :: spec
      type(rdBeamDef), intent(in) :: def
    end function
    type(rdJointDef) function rd_defaultJointDef() bind(c, name='rd_defaultJointDef')
      import :: rdJointDef
    end function
    integer(c_int) function rds_addJoint(spec, def) bind(c, name='rds_addJoint')
      import :: c_int, c_ptr, rdJointDef
      type(c_ptr), value :: spec
      type(rdJointDef), intent(in) :: def
    end function
    type(rdLoadDef) function rd_defaultLoadDef() bind(c, name='rd_defaultLoadDef')
      import :: rdLoadDef
    end function
    integer(c_int) function rds_addLoad(spec, def) bind(c, name='rds_addLoad')
      import :: c_int, c_ptr, rdLoadDef
      type(c_ptr), value :: spec
      type(rdLoadDef), intent(in) :: def
    end function
    type(rdTorqueLawDef) function rd_defaultTorqueLawDef() bind(c, name='rd_defaultTorqueLawDef')
      import :: rdTorqueLawDef
    end function
    integer(c_int) function rds_addTorqueLaw(spec, def) bind(c, name='rds_addTorqueLaw')
      import :: c_int, c_ptr, rdTorqueLawDef
      type(c_ptr), value :: spec
      type(rdTorqueLawDef), intent(in) :: def
    end function
    type(rdLoadCallbackDef) function rd_defaultLoadCallbackDef() &
        bind(c, name='rd_defaultLoadCallbackDef')
      import :: rdLoadCallbackDef
    end function
    integer(c_int) function rds_addLoadCallback(spec, def) bind(c, name='rds_addLoadCallback')
      import :: c_int, c_ptr, rdLoadCallbackDef
      type(c_ptr), value :: spec
      type(rdLoadCallbackDef), intent(in) :: def
    end function
    type(rdUserElementDef) function rd_defaultUserElementDef() &
        bind(c, name='rd_defaultUserElementDef')
      import :: rdUserElementDef
    end function
    integer(c_int) function rds_addUserElement(spec, def) bind(c, name='rds_addUserElement')
      import :: c_int, c_ptr, rdUserElementDef
      type(c_ptr), value :: spec
      type(rdUserElementDef), intent(in) :: def
    end function
    integer(c_int) function rds_setGravity(spec, g) bind(c, name='rds_setGravity')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: spec
      real(c_double), intent(in) :: g(3)
    end function
    integer(c_int) function rds_setOption(spec, key, value) bind(c, name='rds_setOption')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: spec
      character(kind=c_char), dimension(*), intent(in) :: key
      character(kind=c_char), dimension(*), intent(in) :: value
    end function
    integer(c_int) function rds_setOptionReal(spec, key, value) bind(c, name='rds_setOptionReal')
      import :: c_int, c_double, c_ptr, c_char
      type(c_ptr), value :: spec
      character(kind=c_char), dimension(*), intent(in) :: key
      real(c_double), value :: value
    end function
    integer(c_int) function rds_getOption(spec, key, buf, size) bind(c, name='rds_getOption')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: spec
      character(kind=c_char), dimension(*), intent(in) :: key
      character(kind=c_char), dimension(*), intent(out) :: buf
      integer(c_int), value :: size
    end function
    integer(c_int) function rd_optionList(i, key, type_name, deflt, help) &
        bind(c, name='rd_optionList')
      import :: c_int, c_ptr
      integer(c_int), value :: i
      type(c_ptr), intent(out), optional :: key
      type(c_ptr), intent(out), optional :: type_name
      type(c_ptr), intent(out), optional :: deflt
      type(c_ptr), intent(out), optional :: help
    end function
    integer(c_int) function rds_addOutputNode(spec, node) bind(c, name='rds_addOutputNode')
      import :: c_int, c_ptr
      type(c_ptr), value :: spec
      integer(c_int), value :: node
    end function
    integer(c_int) function rds_addOutputReaction(spec, joint) &
        bind(c, name='rds_addOutputReaction')
      import :: c_int, c_ptr
      type(c_ptr), value :: spec
      integer(c_int), value :: joint
    end function
    integer(c_int) function rds_addOutputSectionLoad(spec, beam, s) &
        bind(c, name='rds_addOutputSectionLoad')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: spec
      integer(c_int), value :: beam
      real(c_double), value :: s
    end function
    ! deck.h
    integer(c_int) function rd_readDeck(ctx, path, overrides, noverride, spec) &
        bind(c, name='rd_readDeck')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), dimension(*), intent(in) :: path
      type(c_ptr), value :: overrides
      integer(c_int), value :: noverride
      type(c_ptr), intent(out) :: spec
    end function
    integer(c_int) function rd_readDeckText(ctx, name, text, len, overrides, noverride, spec) &
        bind(c, name='rd_readDeckText')
      import :: c_int, c_ptr, c_char, c_size_t
      type(c_ptr), value :: ctx
      character(kind=c_char), dimension(*), intent(in) :: name
      character(kind=c_char), dimension(*), intent(in) :: text
      integer(c_size_t), value :: len
      type(c_ptr), value :: overrides
      integer(c_int), value :: noverride
      type(c_ptr), intent(out) :: spec
    end function
    ! geometry.h
    integer(c_int) function rdu_beamLineStraight(ctx, line, from, to) &
        bind(c, name='rdu_beamLineStraight')
      import :: c_int, c_double, c_ptr, rdBeamLine
      type(c_ptr), value :: ctx
      type(rdBeamLine), intent(out) :: line
      real(c_double), intent(in) :: from(3)
      real(c_double), intent(in) :: to(3)
    end function
    integer(c_int) function rdu_beamLineArc(ctx, line, center, start, angle, normal) &
        bind(c, name='rdu_beamLineArc')
      import :: c_int, c_double, c_ptr, rdBeamLine
      type(c_ptr), value :: ctx
      type(rdBeamLine), intent(out) :: line
      real(c_double), intent(in) :: center(3)
      real(c_double), intent(in) :: start(3)
      real(c_double), value :: angle
      real(c_double), intent(in) :: normal(3)
    end function
    integer(c_int) function rdu_beamLineSpline(ctx, line, npoint, points) &
        bind(c, name='rdu_beamLineSpline')
      import :: c_int, c_double, c_ptr, rdBeamLine
      type(c_ptr), value :: ctx
      type(rdBeamLine), intent(out) :: line
      integer(c_int), value :: npoint
      real(c_double), intent(in) :: points(*)
    end function
    integer(c_int) function rdu_beamLinePoint(line, s, x, t) bind(c, name='rdu_beamLinePoint')
      import :: c_int, c_double, rdBeamLine
      type(rdBeamLine), intent(in) :: line
      real(c_double), value :: s
      real(c_double), intent(out) :: x(3)
      real(c_double), intent(out) :: t(3)
    end function
    integer(c_int) function rdu_beamLineNodes(line, n, twist, x, q) &
        bind(c, name='rdu_beamLineNodes')
      import :: c_int, c_double, rdBeamLine
      type(rdBeamLine), intent(in) :: line
      integer(c_int), value :: n
      real(c_double), intent(in), optional :: twist(2)
      real(c_double), intent(out) :: x(*)
      real(c_double), intent(out) :: q(*)
    end function
    ! import.h
    integer(c_int) function rd_importBeamDyn(ctx, driver, spec) bind(c, name='rd_importBeamDyn')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), dimension(*), intent(in) :: driver
      type(c_ptr), intent(out) :: spec
    end function
    integer(c_int) function rd_importBeamDynDeck(ctx, driver, out) &
        bind(c, name='rd_importBeamDynDeck')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), dimension(*), intent(in) :: driver
      type(c_ptr), value :: out
    end function
    subroutine rdu_skew(S, v) bind(c, name='rdu_skew')
      import :: c_double
      real(c_double), intent(out) :: S(9)
      real(c_double), intent(in) :: v(3)
    end subroutine
    subroutine rdu_unskew(v, S) bind(c, name='rdu_unskew')
      import :: c_double
      real(c_double), intent(out) :: v(3)
      real(c_double), intent(in) :: S(9)
    end subroutine
    subroutine rdu_expSO3(R, psi) bind(c, name='rdu_expSO3')
      import :: c_double
      real(c_double), intent(out) :: R(9)
      real(c_double), intent(in) :: psi(3)
    end subroutine
    subroutine rdu_logSO3(psi, R) bind(c, name='rdu_logSO3')
      import :: c_double
      real(c_double), intent(out) :: psi(3)
      real(c_double), intent(in) :: R(9)
    end subroutine
    subroutine rdu_quatMul(out, a, b) bind(c, name='rdu_quatMul')
      import :: c_double
      real(c_double), intent(out) :: out(4)
      real(c_double), intent(in) :: a(4)
      real(c_double), intent(in) :: b(4)
    end subroutine
    subroutine rdu_quatConj(out, q) bind(c, name='rdu_quatConj')
      import :: c_double
      real(c_double), intent(out) :: out(4)
      real(c_double), intent(in) :: q(4)
    end subroutine
    ! liegroup.h
    real(c_double) function rdu_quatNormalize(out, q) bind(c, name='rdu_quatNormalize')
      import :: c_double
      real(c_double), intent(out) :: out(4)
      real(c_double), intent(in) :: q(4)
    end function
    subroutine rdu_quatRotate(out, q, v) bind(c, name='rdu_quatRotate')
      import :: c_double
      real(c_double), intent(out) :: out(3)
      real(c_double), intent(in) :: q(4)
      real(c_double), intent(in) :: v(3)
    end subroutine
    subroutine rdu_quatRotateInv(out, q, v) bind(c, name='rdu_quatRotateInv')
      import :: c_double
      real(c_double), intent(out) :: out(3)
      real(c_double), intent(in) :: q(4)
      real(c_double), intent(in) :: v(3)
    end subroutine
    subroutine rdu_quatToMat(R, q) bind(c, name='rdu_quatToMat')
      import :: c_double
      real(c_double), intent(out) :: R(9)
      real(c_double), intent(in) :: q(4)
    end subroutine
    subroutine rdu_matToQuat(q, R) bind(c, name='rdu_matToQuat')
      import :: c_double
      real(c_double), intent(out) :: q(4)
      real(c_double), intent(in) :: R(9)
    end subroutine
    subroutine rdu_quatToRotvec(psi, q) bind(c, name='rdu_quatToRotvec')
      import :: c_double
      real(c_double), intent(out) :: psi(3)
      real(c_double), intent(in) :: q(4)
    end subroutine
    subroutine rdu_rotvecToQuat(q, psi) bind(c, name='rdu_rotvecToQuat')
      import :: c_double
      real(c_double), intent(out) :: q(4)
      real(c_double), intent(in) :: psi(3)
    end subroutine
    real(c_double) function rdu_quatDistance(a, b) bind(c, name='rdu_quatDistance')
      import :: c_double
      real(c_double), intent(in) :: a(4)
      real(c_double), intent(in) :: b(4)
    end function
    subroutine rdu_tangentSO3(T, psi) bind(c, name='rdu_tangentSO3')
      import :: c_double
      real(c_double), intent(out) :: T(9)
      real(c_double), intent(in) :: psi(3)
    end subroutine
    subroutine rdu_tangentInvSO3(Tinv, psi) bind(c, name='rdu_tangentInvSO3')
      import :: c_double
      real(c_double), intent(out) :: Tinv(9)
      real(c_double), intent(in) :: psi(3)
    end subroutine
    subroutine rdu_dexpSO3(J, psi) bind(c, name='rdu_dexpSO3')
      import :: c_double
      real(c_double), intent(out) :: J(9)
      real(c_double), intent(in) :: psi(3)
    end subroutine
    subroutine rdu_dexpinvSO3(Jinv, psi) bind(c, name='rdu_dexpinvSO3')
      import :: c_double
      real(c_double), intent(out) :: Jinv(9)
      real(c_double), intent(in) :: psi(3)
    end subroutine
    subroutine rdu_dTangentSO3(D, psi, a) bind(c, name='rdu_dTangentSO3')
      import :: c_double
      real(c_double), intent(out) :: D(9)
      real(c_double), intent(in) :: psi(3)
      real(c_double), intent(in) :: a(3)
    end subroutine
    subroutine rdu_dTangentTransSO3(D, psi, a) bind(c, name='rdu_dTangentTransSO3')
      import :: c_double
      real(c_double), intent(out) :: D(9)
      real(c_double), intent(in) :: psi(3)
      real(c_double), intent(in) :: a(3)
    end subroutine
    subroutine rdu_dTangentInvSO3(D, psi, a) bind(c, name='rdu_dTangentInvSO3')
      import :: c_double
      real(c_double), intent(out) :: D(9)
      real(c_double), intent(in) :: psi(3)
      real(c_double), intent(in) :: a(3)
    end subroutine
    subroutine rdu_dTangentInvTransSO3(D, psi, a) bind(c, name='rdu_dTangentInvTransSO3')
      import :: c_double
      real(c_double), intent(out) :: D(9)
      real(c_double), intent(in) :: psi(3)
      real(c_double), intent(in) :: a(3)
    end subroutine
    subroutine rdu_poseIdentity(p) bind(c, name='rdu_poseIdentity')
      import :: c_double
      real(c_double), intent(out) :: p(7)
    end subroutine
    subroutine rdu_poseCompose(out, a, b) bind(c, name='rdu_poseCompose')
      import :: c_double
      real(c_double), intent(out) :: out(7)
      real(c_double), intent(in) :: a(7)
      real(c_double), intent(in) :: b(7)
    end subroutine
    subroutine rdu_poseInverse(out, p) bind(c, name='rdu_poseInverse')
      import :: c_double
      real(c_double), intent(out) :: out(7)
      real(c_double), intent(in) :: p(7)
    end subroutine
    subroutine rdu_poseTransformPoint(out, p, v) bind(c, name='rdu_poseTransformPoint')
      import :: c_double
      real(c_double), intent(out) :: out(3)
      real(c_double), intent(in) :: p(7)
      real(c_double), intent(in) :: v(3)
    end subroutine
    subroutine rdu_poseExpIncrementRight(out, p, du) bind(c, name='rdu_poseExpIncrementRight')
      import :: c_double
      real(c_double), intent(out) :: out(7)
      real(c_double), intent(in) :: p(7)
      real(c_double), intent(in) :: du(6)
    end subroutine
    subroutine rdu_poseExpIncrementLeft(out, p, du) bind(c, name='rdu_poseExpIncrementLeft')
      import :: c_double
      real(c_double), intent(out) :: out(7)
      real(c_double), intent(in) :: p(7)
      real(c_double), intent(in) :: du(6)
    end subroutine
    subroutine rdu_poseLogIncrementRight(du, p0, p1) bind(c, name='rdu_poseLogIncrementRight')
      import :: c_double
      real(c_double), intent(out) :: du(6)
      real(c_double), intent(in) :: p0(7)
      real(c_double), intent(in) :: p1(7)
    end subroutine
    subroutine rdu_poseLogIncrementLeft(du, p0, p1) bind(c, name='rdu_poseLogIncrementLeft')
      import :: c_double
      real(c_double), intent(out) :: du(6)
      real(c_double), intent(in) :: p0(7)
      real(c_double), intent(in) :: p1(7)
    end subroutine
    ! model.h
    type(c_ptr) function rd_methodName_c(method) bind(c, name='rd_methodName')
      import :: c_int, c_ptr
      integer(c_int), value :: method
    end function
    integer(c_int) function rd_compile(spec, model) bind(c, name='rd_compile')
      import :: c_int, c_ptr
      type(c_ptr), value :: spec
      type(c_ptr), intent(out) :: model
    end function
    subroutine rd_destroyModel(model) bind(c, name='rd_destroyModel')
      import :: c_ptr
      type(c_ptr), intent(inout) :: model
    end subroutine
    integer(c_int) function rd_modelInfo(model, info) bind(c, name='rd_modelInfo')
      import :: c_int, c_ptr, rdModelInfo
      type(c_ptr), value :: model
      type(rdModelInfo), intent(out) :: info
    end function
    integer(c_int) function rd_subsystemInfo(model, k, info) bind(c, name='rd_subsystemInfo')
      import :: c_int, c_ptr, rdSubsystemInfo
      type(c_ptr), value :: model
      integer(c_int), value :: k
      type(rdSubsystemInfo), intent(out) :: info
    end function
    integer(c_int) function rd_subsystemBody(model, k, i) bind(c, name='rd_subsystemBody')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      integer(c_int), value :: k, i
    end function
    integer(c_int) function rd_nodeSubsystem(model, i) bind(c, name='rd_nodeSubsystem')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      integer(c_int), value :: i
    end function
    type(c_ptr) function rd_nodeName_c(model, i) bind(c, name='rd_nodeName')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      integer(c_int), value :: i
    end function
    type(c_ptr) function rd_jointName_c(model, j) bind(c, name='rd_jointName')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      integer(c_int), value :: j
    end function
    integer(c_int) function rd_findNode(model, name) bind(c, name='rd_findNode')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), dimension(*), intent(in) :: name
    end function
    integer(c_int) function rd_outputNode(model, k) bind(c, name='rd_outputNode')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      integer(c_int), value :: k
    end function
    integer(c_int) function rd_outputReaction(model, k) bind(c, name='rd_outputReaction')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      integer(c_int), value :: k
    end function
    integer(c_int) function rd_outputSectionLoad(model, k, beam, s) &
        bind(c, name='rd_outputSectionLoad')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      integer(c_int), value :: k
      integer(c_int), intent(out), optional :: beam
      real(c_double), intent(out), optional :: s
    end function
    type(c_ptr) function rd_beamName_c(model, b) bind(c, name='rd_beamName')
      import :: c_ptr, c_int
      type(c_ptr), value :: model
      integer(c_int), value :: b
    end function
    integer(c_int) function rd_getOption(model, key, buf, size) bind(c, name='rd_getOption')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), dimension(*), intent(in) :: key
      character(kind=c_char), dimension(*), intent(out) :: buf
      integer(c_int), value :: size
    end function
    real(c_double) function rd_getOptionReal(model, key) bind(c, name='rd_getOptionReal')
      import :: c_double, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), dimension(*), intent(in) :: key
    end function
    integer(c_int) function rd_checkModel(model) bind(c, name='rd_checkModel')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
    end function
    integer(c_int) function rd_printModel(model, out) bind(c, name='rd_printModel')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: out
    end function
    ! simulate.h
    integer(c_int) function rd_createData(model, data) bind(c, name='rd_createData')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), intent(out) :: data
    end function
    subroutine rd_destroyData(data) bind(c, name='rd_destroyData')
      import :: c_ptr
      type(c_ptr), intent(inout) :: data
    end subroutine
    integer(c_int) function rd_copyData(dst, src) bind(c, name='rd_copyData')
      import :: c_int, c_ptr
      type(c_ptr), value :: dst
      type(c_ptr), value :: src
    end function
    integer(c_int) function rd_resetData(model, data) bind(c, name='rd_resetData')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
    end function
    integer(c_int) function rd_initialize(model, data) bind(c, name='rd_initialize')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
    end function
    integer(c_int) function rd_step(model, data, h) bind(c, name='rd_step')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      real(c_double), value :: h
    end function
    integer(c_int) function rd_stepBegin(model, data, h) bind(c, name='rd_stepBegin')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      real(c_double), value :: h
    end function
    integer(c_int) function rd_stepEnd(model, data) bind(c, name='rd_stepEnd')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
    end function
    integer(c_int) function rd_setNodeLoad(model, data, node, force, moment) &
        bind(c, name='rd_setNodeLoad')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      integer(c_int), value :: node
      real(c_double), intent(in), optional :: force(3)
      real(c_double), intent(in), optional :: moment(3)
    end function
    integer(c_int) function rd_advance(model, data, tend, observer, user) bind(c, name='rd_advance')
      import :: c_int, c_double, c_ptr, c_funptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      real(c_double), value :: tend
      type(c_funptr), value :: observer
      type(c_ptr), value :: user
    end function
    integer(c_int) function rd_setStepCallback(data, fn, user) bind(c, name='rd_setStepCallback')
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: data
      type(c_funptr), value :: fn
      type(c_ptr), value :: user
    end function
    real(c_double) function rd_time(data) bind(c, name='rd_time')
      import :: c_double, c_ptr
      type(c_ptr), value :: data
    end function
    integer(c_int) function rd_isInitialized(data) bind(c, name='rd_isInitialized')
      import :: c_int, c_ptr
      type(c_ptr), value :: data
    end function
    integer(c_int) function rd_getNodeState(model, data, i, x, q, v, w, w_body) &
        bind(c, name='rd_getNodeState')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      integer(c_int), value :: i
      real(c_double), intent(out), optional :: x(3)
      real(c_double), intent(out), optional :: q(4)
      real(c_double), intent(out), optional :: v(3)
      real(c_double), intent(out), optional :: w(3)
      real(c_double), intent(out), optional :: w_body(3)
    end function
    integer(c_int) function rd_getEnergy(model, data, kinetic, potential) &
        bind(c, name='rd_getEnergy')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      real(c_double), intent(out), optional :: kinetic
      real(c_double), intent(out), optional :: potential
    end function
    integer(c_int) function rd_getMomentum(model, data, p, L) bind(c, name='rd_getMomentum')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      real(c_double), intent(out), optional :: p(3)
      real(c_double), intent(out), optional :: L(3)
    end function
    integer(c_int) function rd_getBodyMomentum(model, data, i, Pi) &
        bind(c, name='rd_getBodyMomentum')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      integer(c_int), value :: i
      real(c_double), intent(out), optional :: Pi(3)
    end function
    integer(c_int) function rd_getStats(data, stats) bind(c, name='rd_getStats')
      import :: c_int, c_ptr, rdStats
      type(c_ptr), value :: data
      type(rdStats), intent(out) :: stats
    end function
    integer(c_int) function rd_getStepCut(data, i, cut) bind(c, name='rd_getStepCut')
      import :: c_int, c_ptr, rdStepCut
      type(c_ptr), value :: data
      integer(c_int), value :: i
      type(rdStepCut), intent(out) :: cut
    end function
    integer(c_int) function rd_stepCutCount(data) bind(c, name='rd_stepCutCount')
      import :: c_int, c_ptr
      type(c_ptr), value :: data
    end function
    ! output.h
    integer(c_int) function rd_createHistory(model, dir, history) bind(c, name='rd_createHistory')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), dimension(*), intent(in) :: dir
      type(c_ptr), intent(out) :: history
    end function
    integer(c_int) function rd_openHistory(model, path, after, history, rows) &
        bind(c, name='rd_openHistory')
      import :: c_int, c_long, c_double, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), dimension(*), intent(in) :: path
      real(c_double), value :: after
      type(c_ptr), intent(out) :: history
      integer(c_long), intent(out), optional :: rows
    end function
    integer(c_int) function rd_flushHistory(history) bind(c, name='rd_flushHistory')
      import :: c_int, c_ptr
      type(c_ptr), value :: history
    end function
    integer(c_long) function rd_historyRows(history) bind(c, name='rd_historyRows')
      import :: c_long, c_ptr
      type(c_ptr), value :: history
    end function
    integer(c_int) function rd_writeHistory(history, model, data) bind(c, name='rd_writeHistory')
      import :: c_int, c_ptr
      type(c_ptr), value :: history
      type(c_ptr), value :: model
      type(c_ptr), value :: data
    end function
    integer(c_int) function rd_closeHistory(history, commit) bind(c, name='rd_closeHistory')
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: history
      integer(c_int), value :: commit
    end function
    integer(c_int) function rd_writeSummary(model, data, path, wall_time) &
        bind(c, name='rd_writeSummary')
      import :: c_int, c_double, c_ptr, c_char
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      character(kind=c_char), dimension(*), intent(in) :: path
      real(c_double), value :: wall_time
    end function
    integer(c_int) function rd_writeSummaryStatus(model, data, path, run) &
        bind(c, name='rd_writeSummaryStatus')
      import :: c_int, c_ptr, c_char, rdRunStatus
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      character(kind=c_char), dimension(*), intent(in) :: path
      type(rdRunStatus), intent(in) :: run
    end function
    ! output_netcdf.h
    integer(c_int) function rd_createNetcdf(model, path, nc) bind(c, name='rd_createNetcdf')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), dimension(*), intent(in) :: path
      type(c_ptr), intent(out) :: nc
    end function
    integer(c_int) function rd_writeNetcdf(nc, model, data) bind(c, name='rd_writeNetcdf')
      import :: c_int, c_ptr
      type(c_ptr), value :: nc
      type(c_ptr), value :: model
      type(c_ptr), value :: data
    end function
    integer(c_int) function rd_closeNetcdf(nc, commit) bind(c, name='rd_closeNetcdf')
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: nc
      integer(c_int), value :: commit
    end function
    ! output_vtk.h
    integer(c_int) function rd_createVtk(model, dir, vtk) bind(c, name='rd_createVtk')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), dimension(*), intent(in) :: dir
      type(c_ptr), intent(out) :: vtk
    end function
    integer(c_int) function rd_writeVtk(vtk, model, data) bind(c, name='rd_writeVtk')
      import :: c_int, c_ptr
      type(c_ptr), value :: vtk
      type(c_ptr), value :: model
      type(c_ptr), value :: data
    end function
    integer(c_int) function rd_closeVtk(vtk, commit) bind(c, name='rd_closeVtk')
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: vtk
      integer(c_int), value :: commit
    end function
    ! query.h
    integer(c_int) function rd_getJointReaction(model, data, j, force, moment) &
        bind(c, name='rd_getJointReaction')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      integer(c_int), value :: j
      real(c_double), intent(out), optional :: force(3)
      real(c_double), intent(out), optional :: moment(3)
    end function
    integer(c_int) function rd_getRedundantConstraints(model, data, joint, equation, max) &
        bind(c, name='rd_getRedundantConstraints')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      integer(c_int), intent(out), optional :: joint(*)
      integer(c_int), intent(out), optional :: equation(*)
      integer(c_int), value :: max
    end function
    integer(c_int) function rd_getBeamSectionLoad(model, data, b, s, F) &
        bind(c, name='rd_getBeamSectionLoad')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      integer(c_int), value :: b
      real(c_double), value :: s
      real(c_double), intent(out) :: F(6)
    end function
    integer(c_int) function rd_getBeamSectionForces(model, data, b, nq, x, F) &
        bind(c, name='rd_getBeamSectionForces')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      integer(c_int), value :: b
      integer(c_int), intent(out), optional :: nq
      real(c_double), intent(out), optional :: x(*)
      real(c_double), intent(out), optional :: F(*)
    end function
    ! restart.h
    integer(c_int) function rd_writeCheckpoint(model, data, path) bind(c, name='rd_writeCheckpoint')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      character(kind=c_char), dimension(*), intent(in) :: path
    end function
    integer(c_int) function rd_readCheckpoint(model, data, path) bind(c, name='rd_readCheckpoint')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      character(kind=c_char), dimension(*), intent(in) :: path
    end function
    integer(c_int) function rd_readCheckpointFlags(model, data, path, flags) &
        bind(c, name='rd_readCheckpointFlags')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      type(c_ptr), value :: data
      character(kind=c_char), dimension(*), intent(in) :: path
      integer(c_int), value :: flags
    end function
    ! sweep.h
    integer(c_int) function rd_readSweep(ctx, path, sweep) bind(c, name='rd_readSweep')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), dimension(*), intent(in) :: path
      type(c_ptr), intent(out) :: sweep
    end function
    subroutine rd_destroySweep(sweep) bind(c, name='rd_destroySweep')
      import :: c_ptr
      type(c_ptr), intent(inout) :: sweep
    end subroutine
    type(c_ptr) function rd_sweepDeck_c(sweep) bind(c, name='rd_sweepDeck')
      import :: c_ptr
      type(c_ptr), value :: sweep
    end function
    integer(c_int) function rd_sweepCaseCount(sweep) bind(c, name='rd_sweepCaseCount')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
    end function
    type(c_ptr) function rd_sweepCaseId_c(sweep, i) bind(c, name='rd_sweepCaseId')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
      integer(c_int), value :: i
    end function
    integer(c_int) function rd_sweepFindCase(sweep, id) bind(c, name='rd_sweepFindCase')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: sweep
      character(kind=c_char), dimension(*), intent(in) :: id
    end function
    integer(c_int) function rd_sweepOverrides(sweep, i, overrides) bind(c, name='rd_sweepOverrides')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
      integer(c_int), value :: i
      type(c_ptr), intent(out) :: overrides
    end function
    integer(c_int) function rd_sweepVariableCount(sweep) bind(c, name='rd_sweepVariableCount')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
    end function
    type(c_ptr) function rd_sweepVariable_c(sweep, k) bind(c, name='rd_sweepVariable')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
      integer(c_int), value :: k
    end function
    type(c_ptr) function rd_sweepValue_c(sweep, i, k) bind(c, name='rd_sweepValue')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
      integer(c_int), value :: i
      integer(c_int), value :: k
    end function
    integer(c_int) function rd_sweepQuantityCount(sweep) bind(c, name='rd_sweepQuantityCount')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
    end function
    type(c_ptr) function rd_sweepQuantity_c(sweep, q) bind(c, name='rd_sweepQuantity')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
      integer(c_int), value :: q
    end function
    type(c_ptr) function rd_sweepFingerprint_c(sweep, i) bind(c, name='rd_sweepFingerprint')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
      integer(c_int), value :: i
    end function
    integer(c_int) function rd_createCollector(sweep, model, c_b) bind(c, name='rd_createCollector')
      import :: c_int, c_ptr
      type(c_ptr), value :: sweep
      type(c_ptr), value :: model
      type(c_ptr), intent(out) :: c_b
    end function
    integer(c_int) function rd_collect(c_b, data) bind(c, name='rd_collect')
      import :: c_int, c_ptr
      type(c_ptr), value :: c_b
      type(c_ptr), value :: data
    end function
    integer(c_int) function rd_collectedValues(c_b, values) bind(c, name='rd_collectedValues')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: c_b
      real(c_double), intent(out), optional :: values(*)
    end function
    integer(c_int) function rd_getCollectorState(c_b, state) bind(c, name='rd_getCollectorState')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: c_b
      real(c_double), intent(out) :: state(*)
    end function
    integer(c_int) function rd_setCollectorState(c_b, state) bind(c, name='rd_setCollectorState')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: c_b
      real(c_double), intent(in) :: state(*)
    end function
    subroutine rd_destroyCollector(c_b) bind(c, name='rd_destroyCollector')
      import :: c_ptr
      type(c_ptr), intent(inout) :: c_b
    end subroutine
    type(c_ptr) function rd_caseStateName_c(state) bind(c, name='rd_caseStateName')
      import :: c_int, c_ptr
      integer(c_int), value :: state
    end function
    integer(c_int) function rd_writeCaseResult(sweep, i, r, path) bind(c, name='rd_writeCaseResult')
      import :: c_int, c_ptr, c_char, rdCaseResult
      type(c_ptr), value :: sweep
      integer(c_int), value :: i
      type(rdCaseResult), intent(in) :: r
      character(kind=c_char), dimension(*), intent(in) :: path
    end function
    integer(c_int) function rd_readCaseResult(sweep, i, path, r) bind(c, name='rd_readCaseResult')
      import :: c_int, c_ptr, c_char, rdCaseResult
      type(c_ptr), value :: sweep
      integer(c_int), value :: i
      character(kind=c_char), dimension(*), intent(in) :: path
      type(rdCaseResult), intent(out) :: r
    end function
    integer(c_int) function rd_writeSweepIndex(sweep, dir) bind(c, name='rd_writeSweepIndex')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: sweep
      character(kind=c_char), dimension(*), intent(in) :: dir
    end function
    integer(c_int) function rd_writeSweepTables(sweep, results, dir) &
        bind(c, name='rd_writeSweepTables')
      import :: c_int, c_ptr, c_char, rdCaseResult
      type(c_ptr), value :: sweep
      type(rdCaseResult), intent(in) :: results
      character(kind=c_char), dimension(*), intent(in) :: dir
    end function
    ! modal.h (the matrices and shapes column-major: a C array n x 6 is real(c_double) :: a(6, n))
    type(rdLinearizeDef) function rd_defaultLinearizeDef() bind(c, name='rd_defaultLinearizeDef')
      import :: rdLinearizeDef
    end function
    integer(c_int) function rd_linearize(model, data, def, lin) bind(c, name='rd_linearize')
      import :: c_int, c_ptr, rdLinearizeDef
      type(c_ptr), value :: model, data
      type(rdLinearizeDef), intent(in), optional :: def
      type(c_ptr), intent(out) :: lin
    end function
    subroutine rd_destroyLinearization(lin) bind(c, name='rd_destroyLinearization')
      import :: c_ptr
      type(c_ptr), intent(inout) :: lin
    end subroutine
    integer(c_int) function rd_getLinearizationInfo(lin, info) &
        bind(c, name='rd_getLinearizationInfo')
      import :: c_int, c_ptr, rdLinearizationInfo
      type(c_ptr), value :: lin
      type(rdLinearizationInfo), intent(out) :: info
    end function
    type(c_ptr) function rd_linearMatrixName_c(which) bind(c, name='rd_linearMatrixName')
      import :: c_int, c_ptr
      integer(c_int), value :: which
    end function
    ! compressed sparse columns, 0-based: ap(ncol + 1), ai(nnz), ax(nnz)
    integer(c_int) function rd_getLinearMatrix(lin, which, nrow, ncol, nnz, ap, ai, ax) &
        bind(c, name='rd_getLinearMatrix')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: lin
      integer(c_int), value :: which
      integer(c_int), intent(out), optional :: nrow, ncol, nnz
      integer(c_int), intent(out), optional :: ap(*), ai(*)
      real(c_double), intent(out), optional :: ax(*)
    end function
    integer(c_int) function rd_writeLinearMatrices(lin, dir) bind(c, name='rd_writeLinearMatrices')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: lin
      character(kind=c_char), dimension(*), intent(in) :: dir
    end function
    type(rdModalDef) function rd_defaultModalDef() bind(c, name='rd_defaultModalDef')
      import :: rdModalDef
    end function
    integer(c_int) function rd_computeModes(lin, def, modes) bind(c, name='rd_computeModes')
      import :: c_int, c_ptr, rdModalDef
      type(c_ptr), value :: lin
      type(rdModalDef), intent(in), optional :: def
      type(c_ptr), intent(out) :: modes
    end function
    subroutine rd_destroyModes(modes) bind(c, name='rd_destroyModes')
      import :: c_ptr
      type(c_ptr), intent(inout) :: modes
    end subroutine
    integer(c_int) function rd_modeCount(modes) bind(c, name='rd_modeCount')
      import :: c_int, c_ptr
      type(c_ptr), value :: modes
    end function
    type(c_ptr) function rd_modeKindName_c(kind) bind(c, name='rd_modeKindName')
      import :: c_int, c_ptr
      integer(c_int), value :: kind
    end function
    integer(c_int) function rd_getMode(modes, k, info) bind(c, name='rd_getMode')
      import :: c_int, c_ptr, rdModeInfo
      type(c_ptr), value :: modes
      integer(c_int), value :: k
      type(rdModeInfo), intent(out) :: info
    end function
    ! re, im: real(c_double) :: re(6, nnode)
    integer(c_int) function rd_getModeShape(modes, k, re, im) bind(c, name='rd_getModeShape')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: modes
      integer(c_int), value :: k
      real(c_double), intent(out), optional :: re(*), im(*)
    end function
    integer(c_int) function rd_getModesInfo(modes, info) bind(c, name='rd_getModesInfo')
      import :: c_int, c_ptr, rdModesInfo
      type(c_ptr), value :: modes
      type(rdModesInfo), intent(out) :: info
    end function
    real(c_double) function rd_modeMac(a, i, b, j) bind(c, name='rd_modeMac')
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: a, b
      integer(c_int), value :: i, j
    end function
    integer(c_int) function rd_writeModesCsv(modes, path) bind(c, name='rd_writeModesCsv')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: modes
      character(kind=c_char), dimension(*), intent(in) :: path
    end function
    integer(c_int) function rd_writeModesNetcdf(modes, path) bind(c, name='rd_writeModesNetcdf')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: modes
      character(kind=c_char), dimension(*), intent(in) :: path
    end function
    integer(c_int) function rd_writeModeVtk(modes, k, dir, frames, amplitude) &
        bind(c, name='rd_writeModeVtk')
      import :: c_int, c_double, c_ptr, c_char
      type(c_ptr), value :: modes
      integer(c_int), value :: k
      character(kind=c_char), dimension(*), intent(in) :: dir
      integer(c_int), value :: frames
      real(c_double), value :: amplitude
    end function
    integer(c_int) function rd_stateSpace(lin, ninput, inputs, noutput, outputs, ss) &
        bind(c, name='rd_stateSpace')
      import :: c_int, c_ptr, rdSsChannel
      type(c_ptr), value :: lin
      integer(c_int), value :: ninput
      type(rdSsChannel), intent(in) :: inputs(*)
      integer(c_int), value :: noutput
      type(rdSsChannel), intent(in) :: outputs(*)
      type(c_ptr), intent(out) :: ss
    end function
    subroutine rd_destroyStateSpace(ss) bind(c, name='rd_destroyStateSpace')
      import :: c_ptr
      type(c_ptr), intent(inout) :: ss
    end subroutine
    ! a(nx, nx), b(nx, nu), c(ny, nx), d(ny, nu)
    integer(c_int) function rd_getStateSpace(ss, nx, nu, ny, a, b, c, d) &
        bind(c, name='rd_getStateSpace')
      import :: c_int, c_double, c_ptr
      type(c_ptr), value :: ss
      integer(c_int), intent(out), optional :: nx, nu, ny
      real(c_double), intent(out), optional :: a(*), b(*), c(*), d(*)
    end function
    integer(c_int) function rd_writeStateSpace(ss, dir) bind(c, name='rd_writeStateSpace')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ss
      character(kind=c_char), dimension(*), intent(in) :: dir
    end function
    ! C library: the length of a C string
    integer(c_size_t) function rdf_strlen(s) bind(c, name='strlen')
      import :: c_size_t, c_ptr
      type(c_ptr), value :: s
    end function
  end interface

contains

  ! a NUL-terminated copy of a Fortran string, for the library
  function rd_cstr(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: c
    c = trim(s) // c_null_char
  end function

  ! a C string (a pointer the library returned) as a Fortran string; "" for NULL
  function rd_fstr(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n, i
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    n = int(rdf_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function

  ! the context's last error message
  function rd_lastError(ctx) result(s)
    type(c_ptr), intent(in) :: ctx
    character(len=:), allocatable :: s
    s = rd_fstr(rd_lastError_c(ctx))
  end function

  ! the library's version, e.g. "0.1.0"
  function rd_version() result(s)
    character(len=:), allocatable :: s
    s = rd_fstr(rd_version_c())
  end function

  ! the fixed text of a status code
  function rd_statusString(status) result(s)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: s
    s = rd_fstr(rd_statusString_c(status))
  end function

  ! the identifier of a status code, e.g. "RD_ERR_ARG"
  function rd_statusName(status) result(s)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: s
    s = rd_fstr(rd_statusName_c(status))
  end function

  ! the deck name of a method ("" if out of range)
  function rd_methodName(method) result(s)
    integer(c_int), intent(in) :: method
    character(len=:), allocatable :: s
    s = rd_fstr(rd_methodName_c(method))
  end function

  ! the name of node i (0-based; "" if out of range)
  function rd_nodeName(model, i) result(s)
    type(c_ptr), intent(in) :: model
    integer(c_int), intent(in) :: i
    character(len=:), allocatable :: s
    s = rd_fstr(rd_nodeName_c(model, i))
  end function

  ! the name of joint j (0-based; "" if out of range)
  function rd_jointName(model, j) result(s)
    type(c_ptr), intent(in) :: model
    integer(c_int), intent(in) :: j
    character(len=:), allocatable :: s
    s = rd_fstr(rd_jointName_c(model, j))
  end function

  ! the name of beam element b (0-based; "" if out of range)
  function rd_beamName(model, b) result(s)
    type(c_ptr), intent(in) :: model
    integer(c_int), intent(in) :: b
    character(len=:), allocatable :: s
    s = rd_fstr(rd_beamName_c(model, b))
  end function

  ! the base deck's path
  function rd_sweepDeck(sweep) result(s)
    type(c_ptr), intent(in) :: sweep
    character(len=:), allocatable :: s
    s = rd_fstr(rd_sweepDeck_c(sweep))
  end function

  ! the id of case i ("" if out of range)
  function rd_sweepCaseId(sweep, i) result(s)
    type(c_ptr), intent(in) :: sweep
    integer(c_int), intent(in) :: i
    character(len=:), allocatable :: s
    s = rd_fstr(rd_sweepCaseId_c(sweep, i))
  end function

  ! the name of variable k ("" if out of range)
  function rd_sweepVariable(sweep, k) result(s)
    type(c_ptr), intent(in) :: sweep
    integer(c_int), intent(in) :: k
    character(len=:), allocatable :: s
    s = rd_fstr(rd_sweepVariable_c(sweep, k))
  end function

  ! the value of variable k in case i as YAML text ("" where C gives NULL)
  function rd_sweepValue(sweep, i, k) result(s)
    type(c_ptr), intent(in) :: sweep
    integer(c_int), intent(in) :: i
    integer(c_int), intent(in) :: k
    character(len=:), allocatable :: s
    s = rd_fstr(rd_sweepValue_c(sweep, i, k))
  end function

  ! the name of quantity q ("" if out of range)
  function rd_sweepQuantity(sweep, q) result(s)
    type(c_ptr), intent(in) :: sweep
    integer(c_int), intent(in) :: q
    character(len=:), allocatable :: s
    s = rd_fstr(rd_sweepQuantity_c(sweep, q))
  end function

  ! the fingerprint of case i ("" if out of range)
  function rd_sweepFingerprint(sweep, i) result(s)
    type(c_ptr), intent(in) :: sweep
    integer(c_int), intent(in) :: i
    character(len=:), allocatable :: s
    s = rd_fstr(rd_sweepFingerprint_c(sweep, i))
  end function

  ! the name of a case state
  function rd_caseStateName(state) result(s)
    integer(c_int), intent(in) :: state
    character(len=:), allocatable :: s
    s = rd_fstr(rd_caseStateName_c(state))
  end function

  ! the file name of linearization matrix `which` ("" if out of range)
  function rd_linearMatrixName(which) result(s)
    integer(c_int), intent(in) :: which
    character(len=:), allocatable :: s
    s = rd_fstr(rd_linearMatrixName_c(which))
  end function

  ! the name of a mode kind ("" if out of range)
  function rd_modeKindName(kind) result(s)
    integer(c_int), intent(in) :: kind
    character(len=:), allocatable :: s
    s = rd_fstr(rd_modeKindName_c(kind))
  end function
end module rodrigues
