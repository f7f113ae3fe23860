/** Tool version recorded in every run (kept equal to package.json by a unit test). */
export const VERSION = '0.1.0';
