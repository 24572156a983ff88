"""The machine's limits for a roofline of each kernel: peak floating-point rates and the bandwidths of
each cache level and of DRAM (``polyopt.measure.limits``), and each region's bound under them: its flops
and compulsory bytes, and the least time they take (``polyopt.roofline.bound``)."""
