// `import CombineExStore` brings the stream core and the CombineEx types along, since the
// store's state publishers and effects are publishers.
@_exported import CombineEx
