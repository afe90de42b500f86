// File names as the models page reads them.

export function extensionOf(name) {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

// The last part of a path (URDF mesh paths use / and package:// prefixes), lower case.
export const baseName = (path) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1).toLowerCase();
