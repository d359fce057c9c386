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

/// The heap bytes each of `count` live subscriptions made by `subscribe` holds: i1's
/// measurement, for the variants i4 to i6.
private func liveBytes(
  _ bench: Bench, _ subscribe: (inout [AnyCancellable], Total) -> Void
) {
  let count = liveCount(bench)
  let total = Total()
  var cancellables: [AnyCancellable] = []
  cancellables.reserveCapacity(count)
  bench.measureBytes(units: count) {
    for _ in 0..<count { subscribe(&cancellables, total) }
  }
  for cancellable in cancellables { cancellable.cancel() }
  bench.consume(total.value)
}

/// i4: i1 without the `map`: K live `subject.sink` subscriptions.
func liveSinkBytes(_ bench: Bench) {
  let subject = PassthroughSubject<Int, Never>()
  liveBytes(bench) { cancellables, total in
    cancellables.append(subject.sink { total.add($0) })
  }
}

/// i5: i1 on a `CurrentValueSubject`: K live `subject.map.sink` subscriptions.
func liveCurrentValueMapSinkBytes(_ bench: Bench) {
  let subject = CurrentValueSubject<Int, Never>(1)
  liveBytes(bench) { cancellables, total in
    cancellables.append(subject.map { triple($0) }.sink { total.add($0) })
  }
}

/// i6: i4 on a `CurrentValueSubject`: K live `subject.sink` subscriptions.
func liveCurrentValueSinkBytes(_ bench: Bench) {
  let subject = CurrentValueSubject<Int, Never>(1)
  liveBytes(bench) { cancellables, total in
    cancellables.append(subject.sink { total.add($0) })
  }
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
