/** The address of the signed-in panel's module (islands/build.mjs defines it at build time). */
declare const PANEL_APP: string;
