// The timing of the lane contracts: cycles from a word's operands to its results, for the
// single-cycle (Pipelined = 0) and the pipelined (Pipelined = 1) implementation behind each
// wrapper. The engines build their pipeline stages from these numbers, so a lane implementation
// and the stages around it cannot disagree.
package montu_lane_pkg;
  // montu_mac_lane, (ca_j, u_j) = a_j * b_j + c_j + ca_{j-1}: operands in cycle t, u_j in cycle
  // t + mac_lat_u, the carry word ca_j in cycle t + mac_lat_ca.
  function automatic int unsigned mac_lat_u(bit pipelined);
    return pipelined ? 4 : 1;
  endfunction
  function automatic int unsigned mac_lat_ca(bit pipelined);
    return pipelined ? 5 : 1;
  endfunction
  // A lane built with LateC = 1 takes c_j mac_c_late cycles after a_j and b_j (the pipelined lane
  // adds c only in its accumulate stage, so c may come from a longer recurrence).
  function automatic int unsigned mac_c_late(bit pipelined);
    return pipelined ? 2 : 0;
  endfunction

  // montu_qunit_lane, t = u_0 * w mod 2^Word: u_0 in cycle t, t from cycle t + qunit_lat on.
  function automatic int unsigned qunit_lat(bit pipelined);
    return pipelined ? 3 : 1;
  endfunction
endpackage
