import CombineEx
import Foundation

/// Stops about combining publishers and time, on a real DispatchQueue.
enum CombiningStops {
  static func run(_ tour: Tour) {
    merging(tour)
    debouncing(tour)
  }

  static func merging(_ tour: Tour) {
    tour.section(
      "Combining: merge",
      "merge interleaves several publishers into one stream. Values sent from different "
        + "threads are delivered one at a time, none lost.")
    let sensorA = PassthroughSubject<String, Never>()
    let sensorB = PassthroughSubject<String, Never>()
    var readings: [String] = []
    let lock = NSLock()
    let cancellable = sensorA.merge(with: sensorB).sink { reading in
      lock.withLock { readings.append(reading) }
    }
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      let sensor = index == 0 ? sensorA : sensorB
      for value in 1...3 { sensor.send("\(index == 0 ? "A" : "B")\(value)") }
    }
    let received = lock.withLock { readings }
    tour.show("received \(received.count) readings from two threads: \(received.sorted())")
    withExtendedLifetime(cancellable) {}
  }

  static func debouncing(_ tour: Tour) {
    tour.section(
      "Time: debounce on a DispatchQueue",
      "debounce waits for a pause before passing on the latest value, like a search box "
        + "waiting for the user to stop typing. Here on a real serial queue.")
    let queue = DispatchQueue(label: "demo.search")
    let keystrokes = PassthroughSubject<String, Never>()
    let done = DispatchSemaphore(value: 0)
    let cancellable =
      keystrokes
      .debounce(for: .milliseconds(50), scheduler: queue)
      .sink(
        receiveCompletion: { _ in done.signal() },
        receiveValue: { tour.show("searching for \"\($0)\"") })
    for prefix in ["s", "sw", "swi", "swift"] {
      tour.show("typed \"\(prefix)\"")
      keystrokes.send(prefix)
    }
    Thread.sleep(forTimeInterval: 0.2)
    keystrokes.send(completion: .finished)
    done.wait()
    withExtendedLifetime(cancellable) {}
  }
}
