! SPDX-License-Identifier: MIT
! Example Fortran host: read a deck, step it to its final time, print the first node's state.
! Run: ./fortran_top input/heavy_top.yaml (the default deck). Build (from the source root)
! against an installed rodrigues:
!   gfortran -std=f2018 $(pkg-config --variable=includedir rodrigues)/rodrigues/rodrigues.f90 \
!            examples/fortran_top.f90 $(pkg-config --libs rodrigues) -o fortran_top
program fortran_top
  use rodrigues
  implicit none
  type(c_ptr) :: ctx, spec, model, data
  character(len=512) :: deck
  real(c_double) :: x(3), q(4), v(3), w(3), wb(3), ke, pe, tend
  integer(c_int) :: st

  call get_command_argument(1, deck)
  if (len_trim(deck) == 0) deck = 'input/heavy_top.yaml'
  st = rd_createContext(ctx)
  st = rd_readDeck(ctx, rd_cstr(deck), c_null_ptr, 0_c_int, spec)
  if (st == RD_OK) st = rds_setOption(spec, rd_cstr('solver.final_time'), rd_cstr('0.5'))
  if (st == RD_OK) st = rd_compile(spec, model)
  call rd_destroySpec(spec)
  if (st == RD_OK) st = rd_createData(model, data)
  if (st == RD_OK) st = rd_initialize(model, data)
  if (st == RD_OK) then
    tend = rd_getOptionReal(model, rd_cstr('solver.final_time'))
    st = rd_advance(model, data, tend, c_null_funptr, c_null_ptr)
  end if
  if (st /= RD_OK) then
    print '(a)', 'fortran_top: ' // rd_lastError(ctx)
    call rd_destroyData(data)
    call rd_destroyModel(model)
    call rd_destroyContext(ctx)
    error stop 1
  end if
  st = rd_getNodeState(model, data, 0_c_int, x, q, v, w, wb)
  st = rd_getEnergy(model, data, ke, pe)
  print '(a,f8.4,a,3es24.16)', 't = ', rd_time(data), '  x = ', x
  print '(a,4es24.16)', 'q = ', q
  print '(a,es24.16)', 'total energy = ', ke + pe
  ! a unit quaternion, and energy near the heavy top's 5435.69679 J (generalized-alpha, rho 0.9)
  if (abs(sum(q * q) - 1) > 1e-12 .or. abs(ke + pe - 5435.69679086549d0) > 5) error stop 2
  call rd_destroyData(data)
  call rd_destroyModel(model)
  call rd_destroyContext(ctx)
  if (c_associated(ctx)) error stop 3
end program fortran_top
