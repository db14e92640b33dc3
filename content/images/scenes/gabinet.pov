// Gabinet Harmonia: a consulting room with two armchairs, a low table, a plant and a window.
// Made for this website; render: povray +W2400 +H1600 +A0.2 +Ogabinet.png gabinet.pov
#version 3.7;
#include "colors.inc"
#include "textures.inc"
global_settings {
  assumed_gamma 1.0
  radiosity { pretrace_start 0.08 pretrace_end 0.01 count 120 error_bound 0.6 recursion_limit 2 nearest_count 8 brightness 1.0 }
}
camera { location <0.2, 1.25, -3.6> look_at <0.15, 0.85, 1.6> angle 62 right x*image_width/image_height }

// Daylight through the window on the left wall.
light_source { <-12, 7, 3> color rgb <1.0, 0.95, 0.86> * 2.2 area_light <0, 2, 0>, <0, 0, 2>, 4, 4 adaptive 1 jitter }
light_source { <0.5, 2.8, -3.2> color rgb <1.0, 0.96, 0.9> * 0.45 shadowless }
sky_sphere { pigment { gradient y color_map { [0 color rgb <0.92, 0.95, 1.0>] [1 color rgb <0.55, 0.72, 0.95>] } } }

#declare Wall = texture { pigment { color rgb <0.93, 0.90, 0.84> } finish { diffuse 0.85 } }
#declare Floor = texture {
  pigment { wood color_map { [0 color rgb <0.62, 0.45, 0.30>] [0.6 color rgb <0.70, 0.52, 0.36>] [1 color rgb <0.55, 0.39, 0.26>] } turbulence 0.08 scale <0.04, 0.04, 1> rotate <0, 90, 0> }
  finish { diffuse 0.8 specular 0.15 roughness 0.05 reflection 0.04 }
}
#declare Fabric = texture { pigment { color rgb <0.33, 0.47, 0.40> } normal { bumps 0.15 scale 0.01 } finish { diffuse 0.9 } }
#declare Fabric2 = texture { pigment { color rgb <0.78, 0.66, 0.52> } normal { bumps 0.15 scale 0.01 } finish { diffuse 0.9 } }
#declare Oak = texture { pigment { wood color_map { [0 color rgb <0.55, 0.38, 0.22>] [1 color rgb <0.66, 0.48, 0.30>] } scale 0.05 rotate <0, 90, 0> } finish { diffuse 0.8 specular 0.2 } }

// Room: floor, back wall, left wall with a window opening, right wall, ceiling.
plane { y, 0 texture { Floor } }
box { <-2.8, 3.0, -5>, <2.8, 3.1, 3.4> texture { Wall } }
box { <-3, 0, 3.2>, <3, 3, 3.4> texture { Wall } }
box { <2.6, 0, -5>, <2.8, 3, 3.4> texture { Wall } }
difference {
  box { <-2.8, 0, -5>, <-2.6, 3, 3.4> }
  box { <-2.9, 0.9, 0.2>, <-2.5, 2.6, 2.4> }
  texture { Wall }
}
// Window frame and a thin sheer curtain.
union {
  box { <-2.72, 0.9, 0.2>, <-2.62, 0.95, 2.4> }
  box { <-2.72, 2.55, 0.2>, <-2.62, 2.6, 2.4> }
  box { <-2.72, 0.9, 1.27>, <-2.62, 2.6, 1.33> }
  texture { pigment { color White } finish { diffuse 0.9 } }
}
box { <-2.55, 0.7, 2.3>, <-2.5, 2.8, 2.95> texture { pigment { color rgbf <0.98, 0.97, 0.94, 0.55> } finish { diffuse 0.8 } } }
// Garden outside.
plane { y, -0.2 texture { pigment { color rgb <0.35, 0.55, 0.30> } } translate <-40, 0, 0> clipped_by { box { <-200, -1, -200>, <-3, 1, 200> } } }

// A rug.
cylinder { <0.1, 0, 0.9>, <0.1, 0.01, 0.9>, 1.5 scale <1, 1, 0.7> translate <0, 0, 0.28> texture { pigment { color rgb <0.86, 0.80, 0.70> } normal { bumps 0.3 scale 0.02 } finish { diffuse 0.95 } } }

#macro Armchair(Tex)
union {
union {
  // seat
  superellipsoid { <0.25, 0.25> scale <0.42, 0.12, 0.40> translate <0, 0.42, 0> }
  // back
  superellipsoid { <0.25, 0.25> scale <0.42, 0.38, 0.09> translate <0, 0.80, 0.36> }
  // arms
  superellipsoid { <0.3, 0.3> scale <0.09, 0.22, 0.40> translate <-0.48, 0.55, 0.02> }
  superellipsoid { <0.3, 0.3> scale <0.09, 0.22, 0.40> translate < 0.48, 0.55, 0.02> }
  // base
  box { <-0.55, 0.18, -0.38>, <0.55, 0.32, 0.45> }
  texture { Tex }
}
union {
  cylinder { <-0.45, 0, -0.3>, <-0.45, 0.2, -0.3>, 0.025 }
  cylinder { < 0.45, 0, -0.3>, < 0.45, 0.2, -0.3>, 0.025 }
  cylinder { <-0.45, 0, 0.38>, <-0.45, 0.2, 0.38>, 0.025 }
  cylinder { < 0.45, 0, 0.38>, < 0.45, 0.2, 0.38>, 0.025 }
  texture { Oak }
}
}
#end

object { Armchair(Fabric) rotate <0, 35, 0> translate <-1.15, 0, 1.35> }
object { Armchair(Fabric2) rotate <0, -35, 0> translate <1.35, 0, 1.35> }

// Low round table with a glass of water and a box of tissues.
union {
  cylinder { <0, 0.40, 0>, <0, 0.44, 0>, 0.42 }
  cylinder { <0, 0, 0>, <0, 0.40, 0>, 0.05 }
  cylinder { <0, 0, 0>, <0, 0.02, 0>, 0.25 }
  texture { Oak }
  translate <0.1, 0, 0.75>
}
difference {
  cylinder { <0, 0.44, 0>, <0, 0.56, 0>, 0.035 }
  cylinder { <0, 0.45, 0>, <0, 0.57, 0>, 0.031 }
  texture { pigment { color rgbf <0.95, 0.98, 1.0, 0.9> } finish { reflection 0.1 specular 0.6 } }
  interior { ior 1.5 }
  translate <0.25, 0, 0.7>
}
box { <-0.1, 0.44, -0.06>, <0.1, 0.52, 0.06> rotate <0, 20, 0> translate <-0.05, 0, 0.85> texture { pigment { color rgb <0.95, 0.93, 0.9> } } }

// Plant in a pot by the window.
#declare R = seed(7);
union {
  cylinder { <0, 0, 0>, <0, 0.45, 0>, 0.2 texture { pigment { color rgb <0.80, 0.52, 0.38> } finish { diffuse 0.8 } } }
  #for (I, 0, 42)
    #local A = rand(R) * 360;
    #local T = 20 + rand(R) * 45;
    #local L = 0.5 + rand(R) * 0.7;
    cone { <0, 0, 0>, 0.012, <0, L, 0>, 0.002 rotate <T, A, 0> translate <0, 0.45, 0> texture { pigment { color rgb <0.18, 0.38, 0.20> } } }
    sphere { <0, 0, 0>, 1 scale <0.11, 0.012, 0.05> rotate <0, 0, 25> translate <0.08, L * 0.9, 0> rotate <T, A, 0> translate <0, 0.45, 0>
      texture { pigment { color rgb <0.20 + rand(R) * 0.1, 0.45 + rand(R) * 0.15, 0.22> } finish { specular 0.3 } } }
  #end
  translate <-2.1, 0, 2.7>
}

// Shelf with books on the back wall.
box { <0.9, 1.55, 3.0>, <2.3, 1.59, 3.2> texture { Oak } }
#declare RB = seed(11);
#for (I, 0, 13)
  #local W = 0.04 + rand(RB) * 0.03;
  #local H = 0.22 + rand(RB) * 0.1;
  box { <0, 0, 0>, <W, H, 0.16> translate <0.95 + I * 0.085, 1.59, 3.02>
    texture { pigment { color rgb <0.3 + rand(RB) * 0.5, 0.3 + rand(RB) * 0.35, 0.25 + rand(RB) * 0.3> } finish { diffuse 0.85 } } }
#end
// A framed picture of the sea.
box { <-0.9, 1.35, 3.17>, <0.5, 2.25, 3.2> texture { pigment { color rgb <0.85, 0.83, 0.8> } } }
box { <-0.82, 1.43, 3.16>, <0.42, 2.17, 3.17> texture { pigment { gradient y color_map { [0 color rgb <0.85, 0.78, 0.62>] [0.35 color rgb <0.35, 0.52, 0.62>] [0.5 color rgb <0.62, 0.75, 0.85>] [1 color rgb <0.88, 0.90, 0.93>] } scale 0.74 translate <0, 1.43, 0> } finish { diffuse 0.9 } } }
// Floor lamp.
union {
  cylinder { <0, 0, 0>, <0, 0.02, 0>, 0.18 }
  cylinder { <0, 0, 0>, <0, 1.5, 0>, 0.015 }
  texture { pigment { color rgb <0.2, 0.2, 0.2> } finish { metallic specular 0.5 } }
  translate <2.2, 0, 2.4>
}
cone { <0, 1.45, 0>, 0.22, <0, 1.75, 0>, 0.14 open translate <2.2, 0, 2.4> texture { pigment { color rgb <0.96, 0.92, 0.84> } finish { diffuse 0.9 ambient 0.15 } } }
