import CombineEx
import CombineExTesting
import Testing

private struct Failed: Error {}

@Suite("MutableProperty <~ publisher")
struct MutablePropertyBindingTests {
  @Test("each value of the source sets the property, at once")
  func setsEachValue() {
    let query = MutableProperty("")
    let typed = PassthroughSubject<String, Never>()
    let recorder = query.record()
    query <~ typed
    typed.send("s")
    typed.send("sw")
    #expect(query.value == "sw")
    #expect(recorder.values == ["", "s", "sw"])
  }

  @Test("a property source delivers its current value at once when bound")
  func propertySource() {
    let target = MutableProperty(0)
    let source = MutableProperty(5)
    target <~ source.map { $0 * 2 }
    #expect(target.value == 10)
    source.value = 6
    #expect(target.value == 12)
  }

  @Test("a failing source sets values until it fails, and the failure ends the binding")
  func failureEndsBinding() {
    let target = MutableProperty(0)
    let source = PassthroughSubject<Int, Failed>()
    weak var weakCanary: Box<Int>?
    do {
      let canary = Box(0)
      weakCanary = canary
      target <~ source.handleEvents(receiveOutput: { _ in _ = canary })
    }
    source.send(1)
    source.send(completion: .failure(Failed()))
    source.send(2)
    #expect(target.value == 1)
    #expect(weakCanary == nil)
  }

  @Test("the binding ends when the source finishes, and releases the source's pipeline")
  func finishEndsBinding() {
    let target = MutableProperty(0)
    let source = PassthroughSubject<Int, Never>()
    weak var weakCanary: Box<Int>?
    do {
      let canary = Box(0)
      weakCanary = canary
      target <~ source.handleEvents(receiveOutput: { _ in _ = canary })
    }
    source.send(1)
    #expect(weakCanary != nil)
    source.send(completion: .finished)
    #expect(weakCanary == nil)
    #expect(target.value == 1)
  }

  @Test("an optional property takes the values of a non-optional source")
  func optionalTarget() {
    let selection = MutableProperty<Int?>(nil)
    let taps = PassthroughSubject<Int, Never>()
    selection <~ taps
    taps.send(2)
    #expect(selection.value == 2)
    let exact = PassthroughSubject<Int?, Never>()
    selection <~ exact
    exact.send(nil)
    #expect(selection.value == nil)
  }

  @Test("the source does not keep the property alive")
  func targetNotRetained() {
    let source = PassthroughSubject<Int, Never>()
    weak var weakTarget: MutableProperty<Int>?
    do {
      let target = MutableProperty(0)
      weakTarget = target
      target <~ source
      source.send(1)
      #expect(target.value == 1)
    }
    #expect(weakTarget == nil)
  }

  @Test("a subject source lives while bound, as any subject's subscription keeps it, and no longer")
  func sourceNotRetained() {
    let target = MutableProperty(0)
    weak var weakSource: PassthroughSubject<Int, Never>?
    do {
      let source = PassthroughSubject<Int, Never>()
      weakSource = source
      target <~ source
      source.send(3)
    }
    // As in Combine: the binding's subscription keeps the subject; its completion ends both.
    #expect(weakSource != nil)
    weakSource?.send(4)
    weakSource?.send(completion: .finished)
    #expect(weakSource == nil)
    #expect(target.value == 4)
  }

  @Test("once the property is gone, the source's next value cancels the binding")
  func targetGoneCancelsAtNextValue() {
    let source = PassthroughSubject<Int, Never>()
    let probe = SubscriptionProbe(source)
    var target: MutableProperty<Int>? = MutableProperty(0)
    target! <~ probe.publisher
    source.send(1)
    target = nil
    #expect(probe.cancels == 0)
    source.send(2)
    #expect(probe.cancels == 1)
  }

  @Test("bind() is a target that sets the property at once")
  func bindTarget() {
    let volume = MutableProperty(0)
    let slider = PassthroughSubject<Int, Never>()
    volume.bind() <~ slider
    slider.send(7)
    #expect(volume.value == 7)
  }

  @Test("a value bound from inside one of the property's subscribers is delivered after it")
  func reentrantBinding() {
    let target = MutableProperty(0)
    let source = PassthroughSubject<Int, Never>()
    var seen: [Int] = []
    let cancellable = target.sink { value in
      seen.append(value)
      if value == 1 { source.send(2) }
    }
    target <~ source
    source.send(1)
    #expect(seen == [0, 1, 2])
    cancellable.cancel()
  }

  @Test("stress: 8 threads sending to a bound subject leave the property on a sent value")
  func stressConcurrentSources() async {
    let target = MutableProperty(-1)
    let sources = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    for source in sources { target <~ source }
    await concurrentPerform(8) { thread in
      for index in 0..<200 { sources[thread].send(thread * 1_000 + index) }
    }
    #expect(target.value % 1_000 == 199)
  }
}
