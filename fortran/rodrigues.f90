! SPDX-License-Identifier: MIT
! Fortran 2003 bindings (ISO_C_BINDING) for the main calls of the rodrigues C API.
! Compile this file with your program and link with `pkg-config --libs rodrigues`.
! Handles are type(c_ptr); statuses are integer(c_int): 0 ok, > 0 recoverable, < 0 error.
! Strings passed to the library must be NUL-terminated: use rd_cstr('text').
module rodrigues
  use, intrinsic :: iso_c_binding
  implicit none

  integer(c_int), parameter :: RD_OK = 0

  interface
    ! context (context.h)
    integer(c_int) function rd_createContext(ctx, alloc) bind(c, name='rd_createContext')
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: ctx
      type(c_ptr), value :: alloc          ! c_null_ptr: malloc/free
    end function
    subroutine rd_destroyContext(ctx) bind(c, name='rd_destroyContext')
      import :: c_ptr
      type(c_ptr), intent(inout) :: ctx
    end subroutine
    type(c_ptr) function rd_lastError_c(ctx) bind(c, name='rd_lastError')
      import :: c_ptr
      type(c_ptr), value :: ctx
    end function
    ! spec, deck, options (spec.h, deck.h)
    integer(c_int) function rd_readDeck(ctx, path, overrides, noverride, spec) &
        bind(c, name='rd_readDeck')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), dimension(*), intent(in) :: path
      type(c_ptr), value :: overrides      ! c_null_ptr or an array of C strings
      integer(c_int), value :: noverride
      type(c_ptr), intent(out) :: spec
    end function
    integer(c_int) function rds_setOption(spec, key, value) bind(c, name='rds_setOption')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: spec
      character(kind=c_char), dimension(*), intent(in) :: key, value
    end function
    subroutine rd_destroySpec(spec) bind(c, name='rd_destroySpec')
      import :: c_ptr
      type(c_ptr), intent(inout) :: spec
    end subroutine
    ! model (model.h)
    integer(c_int) function rd_compile(spec, model) bind(c, name='rd_compile')
      import :: c_int, c_ptr
      type(c_ptr), value :: spec
      type(c_ptr), intent(out) :: model
    end function
    subroutine rd_destroyModel(model) bind(c, name='rd_destroyModel')
      import :: c_ptr
      type(c_ptr), intent(inout) :: model
    end subroutine
    integer(c_int) function rd_findNode(model, name) bind(c, name='rd_findNode')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), dimension(*), intent(in) :: name
    end function
    real(c_double) function rd_getOptionReal(model, key) bind(c, name='rd_getOptionReal')
      import :: c_double, c_ptr, c_char
      type(c_ptr), value :: model
      character(kind=c_char), dimension(*), intent(in) :: key
    end function
    ! data and stepping (simulate.h)
    integer(c_int) function rd_createData(model, data) bind(c, name='rd_createData')
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), intent(out) :: data
    end function
    subroutine rd_destroyData(data) bind(c, name='rd_destroyData')
      import :: c_ptr
      type(c_ptr), intent(inout) :: data
    end subroutine
    integer(c_int) function rd_initialize(model, data) bind(c, name='rd_initialize')
      import :: c_int, c_ptr
      type(c_ptr), value :: model, data
    end function
    integer(c_int) function rd_step(model, data, h) bind(c, name='rd_step')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: model, data
      real(c_double), value :: h          ! 0: the model's solver.time_step
    end function
    integer(c_int) function rd_advance(model, data, tend, observer, user) &
        bind(c, name='rd_advance')
      import :: c_int, c_ptr, c_double, c_funptr
      type(c_ptr), value :: model, data
      real(c_double), value :: tend
      type(c_funptr), value :: observer   ! c_null_funptr: none
      type(c_ptr), value :: user
    end function
    real(c_double) function rd_time(data) bind(c, name='rd_time')
      import :: c_double, c_ptr
      type(c_ptr), value :: data
    end function
    ! node state: x(3) position, q(4) quaternion (w,x,y,z), v(3) velocity, w(3) angular
    ! velocity (global), wb(3) angular velocity (body); node is 0-based as in C
    integer(c_int) function rd_getNodeState(model, data, node, x, q, v, w, wb) &
        bind(c, name='rd_getNodeState')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: model, data
      integer(c_int), value :: node
      real(c_double), intent(out) :: x(3), q(4), v(3), w(3), wb(3)
    end function
    integer(c_int) function rd_getEnergy(model, data, kinetic, potential) &
        bind(c, name='rd_getEnergy')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: model, data
      real(c_double), intent(out) :: kinetic, potential
    end function
    ! restart (restart.h)
    integer(c_int) function rd_writeCheckpoint(model, data, path) &
        bind(c, name='rd_writeCheckpoint')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model, data
      character(kind=c_char), dimension(*), intent(in) :: path
    end function
    integer(c_int) function rd_readCheckpoint(model, data, path) bind(c, name='rd_readCheckpoint')
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: model, data
      character(kind=c_char), dimension(*), intent(in) :: path
    end function
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

  ! the context's last error message as a Fortran string
  function rd_lastError(ctx) result(msg)
    type(c_ptr), intent(in) :: ctx
    character(len=:), allocatable :: msg
    type(c_ptr) :: p
    character(kind=c_char), pointer :: chars(:)
    integer :: n, i
    p = rd_lastError_c(ctx)
    n = int(rdf_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: msg)
    do i = 1, n
      msg(i:i) = chars(i)
    end do
  end function
end module rodrigues
