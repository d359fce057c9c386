import CombineEx
import Dispatch
import Testing

@Suite("Property async(_:)")
struct PropertyAsyncTests {
  @Test("async() returns the current value")
  func currentValue() async {
    let property = Property(value: 3)
    #expect(await property.async() == 3)
  }

  @Test("async(queue) reads on that queue, after the work queued there before it")
  func readsOnQueue() async {
    let queue = DispatchQueue(label: "PropertyAsyncTests")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 1)
    let count = MutableProperty(0)
    queue.async { count.value = 5 }
    let reading = await count.map { ($0, DispatchQueue.getSpecific(key: key)) }.async(queue)
    #expect(reading.0 == 5)
    #expect(reading.1 == 1)
  }
}
