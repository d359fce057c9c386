// `import CombineEx` is enough to use the whole stream core, URLSession's data task publisher
// and the types of this module (ARCHITECTURE.md, package layout).
@_exported import CombineExCore
@_exported import CombineExNetworking
