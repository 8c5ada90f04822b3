// hx_crc32.svh -- the NIC's end-to-end packet CRC (rtl/nic/hx_nic_tx.sv, hx_nic_rx.sv).
//
// Included *inside* a module body that has a parameter W (the flit payload width). CRC-32 with the
// polynomial 0x04C11DB7, not reflected: hx_crc32(c, d) feeds the W bits of d into the running
// value c one bit at a time, bit 0 first. A packet's CRC starts at 32'hFFFFFFFF, takes the head's
// payload and then every data flit's payload as sent on the link, and is sent inverted (final XOR
// 32'hFFFFFFFF) in bits [31:0] of the trailer. sysc/fabric/packet_crc.h is the C++ reference.
// Call it only where a flit moves (inside an if in always_ff): a simulator then does the W steps
// only for those flits; synthesis unrolls the loop into an XOR network.
function automatic [31:0] hx_crc32(input [31:0] c, input [W-1:0] d);
  logic [31:0] x;
  x = c;
  for (int i = 0; i < W; i++) begin
    x = {x[30:0], 1'b0} ^ ((x[31] ^ d[i]) ? 32'h04C11DB7 : 32'h0);
  end
  hx_crc32 = x;
endfunction
