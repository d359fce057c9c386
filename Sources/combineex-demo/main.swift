import CombineEx

print("CombineEx guided tour")
let cancellable = [1, 2, 3].publisher.map { $0 * 10 }.sink { print($0) }
