# SPDX-License-Identifier: GPL-2.0
#
# Plots of one `make bench` run, from the data files bench/report.py
# writes:  gnuplot -e "dir='bench/results'" bench/plot.gp
#
#   rtt.png   ping-pong time vs message size (median, min-max bars)
#   loss.png  bulk goodput vs netem loss, 1, 8 and 64 KiB messages,
#             and the 8 KiB page fetch time vs loss
if (!exists("dir")) dir = "bench/results"

set terminal pngcairo size 900,600 noenhanced font ",10"
set grid
set key top left

set output dir."/rtt.png"
set title "Ping-pong round trip vs message size (one vCPU, QEMU TCG, veth)"
set logscale x 2
set xlabel "message size (bytes)"
set ylabel "round trip (us), median of repetitions"
set xrange [11:1500]
set yrange [0:*]
plot dir."/rtt.dat" using ($1*0.94):2:5:6 with yerrorlines lw 2 title "Wind", \
     "" using 1:3:7:8 with yerrorlines lw 2 title "UDP", \
     "" using ($1*1.06):4:9:10 with yerrorlines lw 2 title "TCP (TCP_NODELAY)"

if (!exists("noloss")) noloss = 0
if (!noloss) {
	unset logscale x
	unset xrange
	set output dir."/loss.png"
	set terminal pngcairo size 1200,800 noenhanced font ",10"
	set multiplot layout 2,2 title "Under netem loss (both directions, 1500-byte segments)"
	set xlabel "packet loss"
	set ylabel "goodput (Mbit/s)"
	set xrange [-0.3:3.3]
	set yrange [0:*]
	set key top right
	set title "bulk, 1 KiB messages"
	plot dir."/loss.dat" using 1:3:xtic(2) with linespoints lw 2 title "Wind", \
	     "" using 1:4 with linespoints lw 2 title "UDP delivered", \
	     "" using 1:5 with linespoints lw 2 title "TCP"
	set title "bulk, 8 KiB messages"
	plot dir."/loss.dat" using 1:6:xtic(2) with linespoints lw 2 title "Wind", \
	     "" using 1:7 with linespoints lw 2 title "UDP delivered", \
	     "" using 1:8 with linespoints lw 2 title "TCP"
	set title "bulk, 64 KiB messages"
	plot dir."/loss.dat" using 1:9:xtic(2) with linespoints lw 2 title "Wind", \
	     "" using 1:10 with linespoints lw 2 title "UDP delivered", \
	     "" using 1:11 with linespoints lw 2 title "TCP"
	set title "page fetch: 64 B request, 8 KiB reply"
	set ylabel "mean time per fetch (us)"
	set logscale y
	set yrange [*:*]
	set key top left
	plot dir."/loss.dat" using 1:12:xtic(2) with linespoints lw 2 title "Wind", \
	     "" using 1:13 with linespoints lw 2 title "UDP (resend after 20 ms)", \
	     "" using 1:14 with linespoints lw 2 title "TCP"
	unset multiplot
}
