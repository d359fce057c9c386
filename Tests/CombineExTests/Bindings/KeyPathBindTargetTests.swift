import CombineEx
import CombineExTesting
import Foundation
import Testing

/// A value with two fields that two bindings set.
private struct Settings: Codable, Equatable, Sendable {
  var theme = "light"
  var fontSize = 12
  var nickname: String?
}

@Suite("property.bind(\\.field)")
struct KeyPathBindTargetTests {
  @Test("each value of the source sets the field, and the property publishes the whole value once")
  func setsTheField() {
    let settings = MutableProperty(Settings())
    let recorder = settings.record()
    let darkMode = PassthroughSubject<Bool, Never>()
    settings.bind(\.theme) <~ darkMode.map { $0 ? "dark" : "light" }
    darkMode.send(true)
    #expect(settings.value == Settings(theme: "dark"))
    #expect(recorder.values == [Settings(), Settings(theme: "dark")])
  }

  @Test("an optional field takes a non-optional source")
  func optionalField() {
    let settings = MutableProperty(Settings())
    let names = PassthroughSubject<String, Never>()
    settings.bind(\.nickname) <~ names
    names.send("ada")
    #expect(settings.value.nickname == "ada")
  }

  @Test("a set is one atomic modify: another field changed meanwhile is kept")
  func keepsOtherFields() {
    let settings = MutableProperty(Settings())
    let zoom = PassthroughSubject<Int, Never>()
    settings.bind(\.fontSize) <~ zoom
    settings.modify { $0.theme = "dark" }
    zoom.send(16)
    #expect(settings.value == Settings(theme: "dark", fontSize: 16))
  }

  @Test("a PersistentProperty field binding stores once per value")
  func persistentStoresOncePerValue() {
    let engine = MemoryStorageEngine()
    let settings = PersistentProperty(
      storageEngine: engine, key: "settings-\(UUID().uuidString)", defaultValue: Settings())
    let darkMode = PassthroughSubject<Bool, Never>()
    settings.bind(\.theme) <~ darkMode.map { $0 ? "dark" : "light" }
    let before = engine.stores
    darkMode.send(true)
    darkMode.send(false)
    #expect(engine.stores - before == 2)
    #expect(
      engine.storedValues(Settings.self).suffix(2) == [
        Settings(theme: "dark"), Settings(theme: "light"),
      ])
  }

  @Test("the binding ends when the source finishes, and does not keep the property alive")
  func lifetime() {
    weak var weakSettings: MutableProperty<Settings>?
    let zoom = PassthroughSubject<Int, Never>()
    do {
      let settings = MutableProperty(Settings())
      weakSettings = settings
      settings.bind(\.fontSize) <~ zoom
      zoom.send(14)
      #expect(settings.value.fontSize == 14)
    }
    #expect(weakSettings == nil)
    zoom.send(15)  // the binding is cancelled at the next event
  }

  @Test("stress: two bindings into two fields, fed from 8 threads, lose no update")
  func stressTwoFieldsNoLostUpdate() async {
    /// Two counters, set through setters that take a little time: a read-then-write binding
    /// would let the other field's set slip in between more often.
    struct Counters: Equatable, Sendable {
      var left = 0
      var right = 0
      var slowLeft: Int {
        get { left }
        set {
          usleep(20)
          left = newValue
        }
      }
      var slowRight: Int {
        get { right }
        set {
          usleep(20)
          right = newValue
        }
      }
    }
    let counters = MutableProperty(Counters())
    let published = counters.record()
    let left = PassthroughSubject<Void, Never>()
    let right = PassthroughSubject<Void, Never>()
    // A subject delivers one send at a time, so each field receives 1, 2, 3 ... in order,
    // whichever thread sent; the two fields' sets race each other.
    let leftCount = LockedBox(0)
    let rightCount = LockedBox(0)
    counters.bind(\.slowLeft)
      <~ left.map {
        leftCount.withLock {
          $0 += 1; return $0
        }
      }
    counters.bind(\.slowRight)
      <~ right.map {
        rightCount.withLock {
          $0 += 1; return $0
        }
      }
    let rounds = 200
    await concurrentPerform(8) { thread in
      let subject = thread.isMultiple(of: 2) ? left : right
      for _ in 0..<rounds { subject.send(()) }
    }
    // A read-then-write set would write back the other field's older value: that field would
    // step back in what the property publishes, and could end short of its count.
    #expect(counters.value == Counters(left: 4 * rounds, right: 4 * rounds))
    let values = published.values
    let steppedBack = zip(values, values.dropFirst()).filter {
      $1.left < $0.left || $1.right < $0.right
    }
    #expect(steppedBack.isEmpty, "\(steppedBack.count) updates lost")
    #expect(values.count == 8 * rounds + 1)
  }
}
