# tierprobe: share of reads each tier served at each working set, read
# from the latency histograms (points) against the C/S model (lines).
set logscale x 2
set xlabel 'working set (log scale)'
set ylabel 'share of reads served (fraction)'
set yrange [0:1.05]
set xtics ()
set for [i=0:60] xtics add (size_label(2.0**i) 2.0**i)
set xtics rotate by -30
set key outside right top box
name(k) = (k == nseries && has_backing) ? 'backing store' : sprintf('tier %d', k)
plot for [k=1:nseries] 'hits.dat' using 1:(column(1 + k)) \
	with linespoints ls k title name(k) . ' measured', \
     for [k=1:nseries] 'hits.dat' using 1:(column(1 + nseries + k)) \
	with lines ls k dt 2 lw 1.5 title name(k) . ' model (C/S)'
