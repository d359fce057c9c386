import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// The number of live subscriptions in the memory workloads.
private func liveCount(_ bench: Bench) -> Int { bench.size(10_000) }

/// `count` live `subject.map.sink` subscriptions, in storage reserved beforehand.
private func subscribe(
  _ count: Int, to subject: PassthroughSubject<Int, Never>,
  into cancellables: inout [AnyCancellable],
  sum: @escaping (Int) -> Void
) {
  let (transform, _) = work()
  for _ in 0..<count {
    cancellables.append(subject.map(transform).sink(receiveValue: sum))
  }
}

/// i1: the heap bytes each live subscription holds (subscription objects, the subject's list).
func liveSubscriptionBytes(_ bench: Bench) {
  let count = liveCount(bench)
  let subject = PassthroughSubject<Int, Never>()
  var sum = 0
  var cancellables: [AnyCancellable] = []
  cancellables.reserveCapacity(count)
  bench.measureBytes(units: count) {
    subscribe(count, to: subject, into: &cancellables) { sum &+= $0 }
  }
  for cancellable in cancellables { cancellable.cancel() }
  consume(sum)
}

/// i2: the cost of one delivery when a subject has many subscribers.
func fanOut(_ bench: Bench) {
  let count = liveCount(bench)
  let sends = 100
  let subject = PassthroughSubject<Int, Never>()
  var sum = 0
  var cancellables: [AnyCancellable] = []
  cancellables.reserveCapacity(count)
  subscribe(count, to: subject, into: &cancellables) { sum &+= $0 }
  bench.measure(units: count * sends) {
    for index in 0..<sends { subject.send(index) }
  }
  for cancellable in cancellables { cancellable.cancel() }
  consume(sum)
}

/// i3: cancelling many live subscriptions one by one, in subscription order.
func cancelEach(_ bench: Bench) {
  let count = liveCount(bench)
  let subject = PassthroughSubject<Int, Never>()
  var sum = 0
  var cancellables: [AnyCancellable] = []
  cancellables.reserveCapacity(count)
  subscribe(count, to: subject, into: &cancellables) { sum &+= $0 }
  bench.measure(units: count) {
    for cancellable in cancellables { cancellable.cancel() }
  }
  consume(sum)
}
