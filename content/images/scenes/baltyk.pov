// Gabinet Harmonia: morning light over the Baltic, seen from the dunes of the Gulf of Gdańsk.
// Made for this website; render: povray +W2400 +H1350 +A0.2 +Obaltyk.png baltyk.pov
#version 3.7;
#include "colors.inc"
#include "functions.inc"
global_settings { assumed_gamma 1.0 }
camera { location <0, 1.7, -6> look_at <0, 1.2, 20> angle 60 right x*image_width/image_height }
// A low sun just above the horizon.
light_source { <-300, 40, 1000> color rgb <1.0, 0.82, 0.62> * 1.6 looks_like { sphere { 0, 18 pigment { color rgb <1, 0.9, 0.7> * 3 } finish { emission 1 } } } }
light_source { <0, 200, -100> color rgb <0.55, 0.62, 0.75> * 0.4 shadowless }
sky_sphere {
  pigment { gradient y color_map {
    [0.00 color rgb <0.98, 0.80, 0.62>]
    [0.04 color rgb <0.95, 0.78, 0.66>]
    [0.12 color rgb <0.72, 0.76, 0.86>]
    [0.35 color rgb <0.42, 0.58, 0.80>]
    [1.00 color rgb <0.25, 0.40, 0.68>] } }
  pigment { bozo turbulence 0.6 omega 0.6 lambda 2.4 octaves 6
    color_map { [0 color rgbt <1, 0.92, 0.86, 1>] [0.55 color rgbt <1, 0.92, 0.86, 1>] [0.75 color rgbt <1, 0.88, 0.8, 0.55>] [1 color rgbt <1, 0.95, 0.92, 0.25>] }
    scale <0.3, 0.05, 0.3> translate <0, 0.1, 0> }
}
// The sea: gentle waves with the sky and the sun reflected.
plane { y, 0
  texture {
    pigment { color rgb <0.12, 0.25, 0.33> }
    normal { waves 0.12 frequency 3 turbulence 0.3 scale <3, 1, 0.6> }
    finish { diffuse 0.25 reflection { 0.15, 0.8 fresnel on } specular 0.9 roughness 0.002 conserve_energy }
  }
  interior { ior 1.33 }
}
// Wet sand and the foam line, then dry sand towards the camera.
height_field {
  function 256, 256 { f_noise3d(x * 18, 0, y * 18) * 0.35 + (1 - y) * 0.65 }
  smooth
  scale <60, 0.9, 9> translate <-30, -0.62, -10>
  texture {
    pigment { gradient y color_map { [0 color rgb <0.55, 0.48, 0.38>] [0.62 color rgb <0.62, 0.55, 0.45>] [0.72 color rgb <0.93, 0.92, 0.88>] [0.75 color rgb <0.80, 0.71, 0.56>] [1 color rgb <0.88, 0.79, 0.63>] } scale 0.9 translate <0, -0.62, 0> }
    normal { granite 0.15 scale 0.05 }
    finish { diffuse 0.85 specular 0.05 }
  }
}
// Dune grass on the right edge.
#declare R = seed(42);
#for (I, 0, 900)
  #local X = 2.4 + rand(R) * 3.5;
  #local Z = -5.2 + rand(R) * 2.5;
  #local H = 0.25 + rand(R) * 0.5;
  cone { <0, 0, 0>, 0.008, <0, H, 0>, 0.0005 rotate <rand(R) * 30 - 15, 0, rand(R) * 30 - 15> translate <X, 0.2, Z>
    texture { pigment { color rgb <0.52 + rand(R) * 0.2, 0.55 + rand(R) * 0.15, 0.32> } finish { diffuse 0.8 } } }
#end
