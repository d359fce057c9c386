import CombineEx
import CombineExTesting
import Testing

/// Generic code over the original CombineEx's protocols, with every conforming type.
private func increment(_ counter: some ComposableMutablePropertyProtocol<Int>) {
  counter.modify { $0 += 1 }
}

private func doubled(_ counter: some ComposableMutablePropertyProtocol<Int>) -> Int {
  counter.withValue { $0 * 2 }
}

private func reset(_ counter: some MutablePropertyProtocol<Int>) {
  counter.value = 0
}

private struct Refused: Error, Equatable {}

@Suite("MutablePropertyProtocol and ComposableMutablePropertyProtocol")
struct MutablePropertyProtocolTests {
  @Test("MutableProperty works through the protocols: modify, withValue, and a set")
  func mutablePropertyThroughProtocols() {
    let counter = MutableProperty(4)
    let recorder = counter.record()
    increment(counter)
    #expect(doubled(counter) == 10)
    reset(counter)
    #expect(recorder.values == [4, 5, 0])
  }

  @Test("an existential ComposableMutablePropertyProtocol can be modified and read")
  func existential() {
    let counter: any ComposableMutablePropertyProtocol<Int> = MutableProperty(1)
    counter.modify { $0 *= 3 }
    #expect(counter.withValue { $0 } == 3)
    #expect(counter.value == 3)
  }

  @Test("MutableProperty.modify without a result publishes once, with the result")
  func nonGenericModifyPublishesOnce() {
    let counter = MutableProperty(1)
    let recorder = counter.record()
    counter.modify { (value: inout Int) in value += 10 }
    #expect(recorder.values == [1, 11])
  }

  @Test("the general modify and withValue still return results and rethrow")
  func generalFormsStillWork() throws {
    let counter = MutableProperty(1)
    let old = counter.modify { value -> Int in
      defer { value = 7 }
      return value
    }
    #expect(old == 1)
    #expect(counter.withValue { "\($0)" } == "7")
    #expect(throws: Refused.self) { try counter.withValue { _ in throw Refused() } }
  }

  @Test("tryWithValue returns the result or rethrows the error")
  func tryWithValue() {
    let names = MutableProperty(["Ada"])
    #expect(names.tryWithValue { $0.first } == "Ada")
    #expect(throws: Refused.self) {
      try names.tryWithValue { _ -> String in throw Refused() }
    }
  }
}
