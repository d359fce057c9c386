import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// The number of live subscriptions in the memory workloads.
private func liveCount(_ bench: Bench) -> Int { bench.size(10_000) }

/// Appends `count` live `subject.map.sink` subscriptions to `cancellables`.
private func subscribe(
  _ count: Int, to subject: PassthroughSubject<Int, Never>,
  into cancellables: inout [AnyCancellable], total: Total
) {
  for _ in 0..<count {
    cancellables.append(subject.map { triple($0) }.sink { total.add($0) })
  }
}

/// i1: the heap bytes each live subscription holds (subscription objects, the subject's list).
func liveSubscriptionBytes(_ bench: Bench) {
  let count = liveCount(bench)
  let subject = PassthroughSubject<Int, Never>()
  let total = Total()
  var cancellables: [AnyCancellable] = []
  cancellables.reserveCapacity(count)
  bench.measureBytes(units: count) {
    subscribe(count, to: subject, into: &cancellables, total: total)
  }
  for cancellable in cancellables { cancellable.cancel() }
  bench.consume(total.value)
}

/// i2: the cost of one delivery when a subject has many subscribers.
func fanOut(_ bench: Bench) {
  let count = liveCount(bench)
  let sends = 100
  let subject = PassthroughSubject<Int, Never>()
  let total = Total()
  var cancellables: [AnyCancellable] = []
  cancellables.reserveCapacity(count)
  subscribe(count, to: subject, into: &cancellables, total: total)
  bench.measure(units: count * sends) {
    for index in 0..<sends { subject.send(index) }
  }
  for cancellable in cancellables { cancellable.cancel() }
  bench.consume(total.value)
}

/// i3: cancelling many live subscriptions one by one, in subscription order.
func cancelEach(_ bench: Bench) {
  let count = liveCount(bench)
  let subject = PassthroughSubject<Int, Never>()
  let total = Total()
  var cancellables: [AnyCancellable] = []
  cancellables.reserveCapacity(count)
  subscribe(count, to: subject, into: &cancellables, total: total)
  bench.measure(units: count) {
    for cancellable in cancellables { cancellable.cancel() }
  }
  bench.consume(total.value)
}
