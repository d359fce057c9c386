// `import CombineEx` is enough to use the whole stream core as well as the types of this
// module (ARCHITECTURE.md, package layout).
@_exported import CombineExCore
