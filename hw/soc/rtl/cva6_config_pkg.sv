// CVA6 configuration of the Montu SoC: RV64IMAC, no FPU, the CV-X-IF coprocessor port on.
//
// CVA6's packages import a package named cva6_config_pkg; the pythondata-cpu-cva6 package ships
// one per configuration, and the SoC compiles this one instead (src/montu/soc/cva6.py drops
// the package's). The FPU is off because the package lacks the FPU's div/sqrt sources; the
// firmware is built for rv64imac.
package cva6_config_pkg;

  localparam int unsigned CVA6ConfigXlen = 64;

  localparam bit CVA6ConfigFpuEn     = 1'b0;
  localparam bit CVA6ConfigF16En     = 1'b0;
  localparam bit CVA6ConfigF16AltEn  = 1'b0;
  localparam bit CVA6ConfigF8En      = 1'b0;
  localparam bit CVA6ConfigFVecEn    = 1'b0;

  localparam bit CVA6ConfigCvxifEn   = 1'b1;   // Montu sits on the CV-X-IF port
  localparam bit CVA6ConfigCExtEn    = 1'b1;
  localparam bit CVA6ConfigAExtEn    = 1'b1;

  localparam bit          CVA6ConfigFetchUserEn    = 1'b0;
  localparam int unsigned CVA6ConfigFetchUserWidth = CVA6ConfigXlen;
  localparam bit          CVA6ConfigDataUserEn     = 1'b0;
  localparam int unsigned CVA6ConfigDataUserWidth  = CVA6ConfigXlen;

  localparam bit CVA6ConfigRenameEn  = 1'b0;

endpackage
