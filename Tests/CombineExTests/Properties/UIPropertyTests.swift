import CombineEx
import CombineExTesting
import Dispatch
import Observation
import Testing

extension MainQueueTests {
  @Suite("UIProperty")
  struct UIPropertyTests {
    @Test("UIProperty starts with the property's current value")
    func startsWithCurrentValue() async {
      let source = MutableProperty(3)
      let value = await MainActor.run { UIProperty(source).value }
      #expect(value == 3)
    }

    @Test("a change made on the main queue applies at once")
    func mainQueueChangeAppliesAtOnce() async {
      let source = MutableProperty(0)
      let value = await MainActor.run { () -> Int in
        let mirror = UIProperty(source)
        source.value = 1
        return mirror.value
      }
      #expect(value == 1)
    }

    @Test("a change made on another thread applies later, on the main queue")
    func backgroundChangeHops() async {
      let source = MutableProperty(0)
      let mirror = await MainActor.run { UIProperty(source) }
      let valueRightAfter = await MainActor.run { () -> Int in
        MainQueue.onBackgroundThread { source.value = 1 }
        return mirror.value
      }
      await MainQueue.drain()
      #expect(valueRightAfter == 0)
      #expect(mirror.value == 1)
    }

    @Test("withObservationTracking fires when the value changes, on the main queue")
    func observationFiresOnMain() async {
      let source = MutableProperty("a")
      let log = EventLog()
      let mirror = await MainActor.run { () -> UIProperty<String> in
        let mirror = UIProperty(source)
        withObservationTracking {
          _ = mirror.value
        } onChange: {
          log.append("changed on main: \(MainQueue.isCurrent)")
        }
        return mirror
      }
      DispatchQueue.global().sync { source.value = "b" }
      await MainQueue.drain()
      #expect(log.values == ["changed on main: true"])
      #expect(mirror.value == "b")
    }

    @Test("setting the same value again is a change too (no deduplication)")
    func noDeduplication() async {
      let source = MutableProperty(7)
      let log = EventLog()
      await MainActor.run {
        let mirror = UIProperty(source)
        withObservationTracking {
          _ = mirror.value
        } onChange: {
          log.append("changed")
        }
        source.value = 7
      }
      #expect(log.values == ["changed"])
    }

    @Test("a background value and a later main-queue value apply in order")
    func ordered() async {
      let source = MutableProperty(0)
      let mirror = await MainActor.run { UIProperty(source) }
      await MainActor.run {
        MainQueue.onBackgroundThread { source.value = 1 }
        source.value = 2
      }
      await MainQueue.drain()
      #expect(mirror.value == 2)
    }

    @Test("a dropped UIProperty is freed and cancels its subscription to the property")
    func freed() async {
      let source = ProbedSendableProperty(0)
      let (isFreed, cancels) = await MainActor.run { () -> (Bool, Int) in
        weak var weakMirror: UIProperty<Int>?
        do {
          let mirror = UIProperty(source)
          weakMirror = mirror
          source.source.value = 1
          #expect(mirror.value == 1)
        }
        return (weakMirror == nil, source.cancels)
      }
      #expect(isFreed)
      #expect(cancels == 1)
    }

    @Test("stress: with 8 threads setting the property, the mirror ends on its last value")
    func stressEndsOnLastValue() async {
      let source = MutableProperty(0)
      let log = EventLog()
      let mirror = await MainActor.run { () -> UIProperty<Int> in
        let mirror = UIProperty(source)
        withObservationTracking {
          _ = mirror.value
        } onChange: {
          log.append("changed on main: \(MainQueue.isCurrent)")
        }
        return mirror
      }
      await concurrentPerform(8) { thread in
        for index in 1...200 { source.value = thread * 1_000 + index }
      }
      await MainQueue.drain()
      #expect(log.values == ["changed on main: true"])
      let final = mirror.value
      #expect(final == source.value)
    }

    @Test("UIProperty is a property: subscribers get its value, then each value applied on main")
    func isAProperty() async {
      let source = MutableProperty(1)
      let mirror = UIProperty(source)
      let log = EventLog()
      let cancellable = mirror.sink { log.append("\($0) on main: \(MainQueue.isCurrent)") }
      MainQueue.onBackgroundThread { source.value = 2 }
      await MainQueue.drain()
      #expect(log.values == ["1 on main: false", "2 on main: true"])
      #expect(mirror.value == 2)
      cancellable.cancel()
    }

    @Test("UIProperty can be made and read off the main queue, as in the original CombineEx")
    func offMainCreationAndRead() async {
      let source = MutableProperty("a")
      let mirror = source.eraseToUIProperty()
      #expect(mirror.value == "a")
      source.value = "b"  // off the main queue: applied there later
      await MainQueue.drain()
      #expect(mirror.value == "b")
    }

    @Test("UIProperty(initial:then:) starts with initial and applies each value on main")
    func initialThen() async {
      let values = PassthroughSubject<Int, Never>()
      let mirror = UIProperty(initial: 0, then: values)
      let log = EventLog()
      let cancellable = mirror.dropFirst().sink {
        log.append("\($0) on main: \(MainQueue.isCurrent)")
      }
      #expect(mirror.value == 0)
      values.send(4)
      await MainQueue.drain()
      #expect(mirror.value == 4)
      #expect(log.values == ["4 on main: true"])
      cancellable.cancel()
    }

    @Test("UIProperty(initial:then:) does not keep itself alive through then")
    func initialThenReleased() async {
      let values = PassthroughSubject<Int, Never>()
      let probe = ProbedSendableProperty(0)
      weak var weakMirror: UIProperty<Int>?
      do {
        let mirror = UIProperty(initial: 0, then: probe.merge(with: values))
        weakMirror = mirror
      }
      // The source's first value was applied on the main queue, which holds the mirror while it
      // applies it: let that finish (a cycle would still keep the mirror alive).
      await MainQueue.drain()
      #expect(weakMirror == nil)
      #expect(probe.cancels == 1)
    }

    @Test("UIProperty.just is a constant mirror that never completes")
    func just() {
      let placeholder: UIProperty<String> = .just("Loading")
      let recorder = placeholder.record()
      #expect(placeholder.value == "Loading")
      #expect(recorder.events == [.subscription, .value("Loading")])
    }

    @Test("a subscriber of a UIProperty does not keep the source alive after the mirror goes")
    func subscriberOfMirrorDoesNotKeepSource() async {
      let source = ProbedSendableProperty(0)
      var mirror: UIProperty<Int>? = UIProperty(source)
      let recorder = mirror?.record()
      mirror = nil
      #expect(source.cancels == 1)
      #expect(recorder?.values == [0])
    }
  }
}
