// Package layers holds no code, only the test that keeps the module's
// imports pointing down the layers docs/ARCHITECTURE.md lists: a package
// may import only packages of lower layers, and every package of the
// module must be in a layer.
package layers
