// Gabinet Harmonia: a desk by the window with an open notebook, a pen and a cup of tea.
// Made for this website; render: povray +W2400 +H1350 +A0.2 +Oherbata.png herbata.pov
#version 3.7;
#include "colors.inc"
global_settings {
  assumed_gamma 1.0
  radiosity { pretrace_start 0.08 pretrace_end 0.01 count 100 error_bound 0.7 recursion_limit 2 nearest_count 8 }
}
camera { location <0.05, 0.36, -0.62> look_at <0.06, 0.03, 0.12> angle 50 right x*image_width/image_height focal_point <0, 0, 0> aperture 0.03 blur_samples 12 }
light_source { <-3, 3, 2.5> color rgb <1.0, 0.93, 0.82> * 2.0 area_light <0.8, 0, 0>, <0, 0.8, 0>, 4, 4 adaptive 1 jitter }
light_source { <0.5, 1.5, -1.5> color rgb <0.85, 0.9, 1.0> * 0.35 shadowless }
sky_sphere { pigment { color rgb <0.85, 0.9, 0.97> } }

// Oak desk top.
box { <-2, -0.04, -1>, <2, 0, 1.5>
  texture {
    pigment { wood color_map { [0 color rgb <0.58, 0.40, 0.24>] [0.5 color rgb <0.68, 0.50, 0.32>] [1 color rgb <0.54, 0.37, 0.22>] } turbulence 0.06 scale <0.02, 0.02, 1> rotate <0, 85, 0> }
    finish { diffuse 0.8 specular 0.25 roughness 0.03 reflection 0.05 }
  }
}
// Open notebook: two pages with ruled lines, slightly curved.
union {
  box { <0.002, 0.004, -0.15>, <0.215, 0.009, 0.15> rotate <0, 0, 3> }
  box { <-0.215, 0.004, -0.15>, <-0.002, 0.009, 0.15> rotate <0, 0, -3> }
  texture {
    pigment { gradient z color_map { [0 color rgb <0.55, 0.65, 0.78>] [0.05 color rgb <0.55, 0.65, 0.78>] [0.06 color rgb <0.98, 0.97, 0.93>] [1 color rgb <0.98, 0.97, 0.93>] } scale 0.018 }
    finish { diffuse 0.9 }
  }
  rotate <0, -12, 0>
  translate <-0.08, 0, 0.05>
}
box { <-0.225, 0, -0.158>, <0.225, 0.005, 0.158> rotate <0, -12, 0> translate <-0.08, 0, 0.05> texture { pigment { color rgb <0.25, 0.42, 0.36> } } }
// Pen.
union {
  cylinder { <-0.07, 0, 0>, <0.07, 0, 0>, 0.0045 }
  cone { <0.07, 0, 0>, 0.0045, <0.085, 0, 0>, 0.001 }
  texture { pigment { color rgb <0.12, 0.14, 0.18> } finish { specular 0.7 roughness 0.01 reflection 0.05 } }
  rotate <0, 30, 0> translate <0.0, 0.02, -0.02>
}
// Cup of tea on a saucer.
#declare Porcelain = texture { pigment { color rgb <0.97, 0.96, 0.93> } finish { diffuse 0.8 specular 0.6 roughness 0.005 reflection 0.06 } }
union {
  cylinder { <0, 0, 0>, <0, 0.008, 0>, 0.085 texture { Porcelain } }
  difference {
    cone { <0, 0.008, 0>, 0.035, <0, 0.075, 0>, 0.048 }
    cone { <0, 0.014, 0>, 0.031, <0, 0.08, 0>, 0.044 }
    texture { Porcelain }
  }
  torus { 0.018, 0.005 rotate <90, 0, 0> translate <0.055, 0.045, 0> texture { Porcelain } }
  cylinder { <0, 0.06, 0>, <0, 0.062, 0>, 0.0415 texture { pigment { color rgb <0.62, 0.34, 0.12> } finish { specular 0.8 roughness 0.005 reflection 0.15 } } }
  translate <0.34, 0, 0.16>
}
// A lemon slice on the saucer and a teapot at the back.
cylinder { <0, 0, 0>, <0, 0.006, 0>, 0.02 translate <0.27, 0.008, 0.1> texture { pigment { color rgb <0.95, 0.85, 0.35> } } }
union {
  sphere { <0, 0, 0>, 1 scale <0.13, 0.11, 0.13> translate <0, 0.11, 0> }
  cylinder { <0, 0.2, 0>, <0, 0.24, 0>, 0.04 }
  sphere { <0, 0.25, 0>, 0.015 }
  cone { <0.1, 0.1, 0>, 0.03, <0.2, 0.18, 0>, 0.012 }
  torus { 0.06, 0.012 rotate <90, 0, 0> translate <-0.14, 0.12, 0> }
  texture { pigment { color rgb <0.42, 0.58, 0.52> } finish { diffuse 0.75 specular 0.5 roughness 0.01 reflection 0.05 } }
  translate <0.6, 0, 0.55>
}
// Books stacked on the left and a small plant.
box { <-0.62, 0, 0.2>, <-0.36, 0.035, 0.55> rotate <0, 8, 0> texture { pigment { color rgb <0.75, 0.55, 0.42> } } }
box { <-0.6, 0.035, 0.22>, <-0.38, 0.065, 0.52> rotate <0, 3, 0> texture { pigment { color rgb <0.36, 0.45, 0.58> } } }
box { <-0.61, 0.065, 0.24>, <-0.37, 0.09, 0.5> rotate <0, 11, 0> texture { pigment { color rgb <0.88, 0.84, 0.76> } } }
#declare R = seed(3);
union {
  cylinder { <0, 0, 0>, <0, 0.09, 0>, 0.055 texture { pigment { color rgb <0.85, 0.6, 0.45> } } }
  #for (I, 0, 25)
    sphere { <0, 0, 0>, 1 scale <0.04, 0.006, 0.018> translate <0.035, 0, 0> rotate <0, 0, 20 + rand(R) * 40> rotate <0, rand(R) * 360, 0> translate <0, 0.095 + rand(R) * 0.06, 0>
      texture { pigment { color rgb <0.2, 0.45 + rand(R) * 0.15, 0.22> } finish { specular 0.3 } } }
  #end
  translate <-0.48, 0.09, 0.38>
}
// Window wall far behind, out of focus.
box { <-3, -1, 1.5>, <3, 3, 1.55> texture { pigment { color rgb <0.92, 0.89, 0.83> } } }
