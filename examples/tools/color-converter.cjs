'use strict';
// Converts a colour given as hex or as an RGB object into hex, RGB and HSL, with its relative luminance.
function parseColor(color) {
  if (typeof color === 'string') {
    let hex = color.replace(/^#/, '');
    if (hex.length === 3) hex = hex.split('').map((c) => c + c).join('');
    const value = parseInt(hex, 16);
    return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255 };
  }
  return { r: color.r, g: color.g, b: color.b };
}
function toHsl({ r, g, b }) {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  let h = 0;
  let s = 0;
  if (max !== min) {
    const d = max - min;
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    if (max === rn) h = (gn - bn) / d + (gn < bn ? 6 : 0);
    else if (max === gn) h = (bn - rn) / d + 2;
    else h = (rn - gn) / d + 4;
    h *= 60;
  }
  return { h: Math.round(h), s: Math.round(s * 100), l: Math.round(l * 100) };
}
function luminance({ r, g, b }) {
  const channel = (c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  };
  return Math.round((0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)) * 10000) / 10000;
}
exports.run = function run(params) {
  const rgb = parseColor(params.color);
  const hex = '#' + [rgb.r, rgb.g, rgb.b].map((c) => c.toString(16).padStart(2, '0')).join('');
  const hsl = toHsl(rgb);
  const lum = luminance(rgb);
  return {
    hex,
    rgb,
    hsl,
    css: { rgb: `rgb(${rgb.r}, ${rgb.g}, ${rgb.b})`, hsl: `hsl(${hsl.h}, ${hsl.s}%, ${hsl.l}%)` },
    luminance: lum,
    best_text_color: lum > 0.179 ? '#000000' : '#ffffff',
  };
};
